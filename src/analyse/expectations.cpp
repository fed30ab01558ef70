#include "analyse/expectations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <utility>

#include "analyse/ceilings.hpp"
#include "analyse/expected_figure.hpp"
#include "analyse/gpu_model.hpp"
#include "analyse/network/cross_host_expectation.hpp"
#include "analyse/what_ran.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

bool row_holds(const ExpectationRow& e, const std::string& model, const ExpectationQuery& q) {
  return e.gpu == model && e.figure == q.figure && (e.gpus == 0 || e.gpus == q.gpus) &&
         (e.hosts == 0 || e.hosts == q.hosts);
}

bool algo_holds(const ExpectationRow& e, const std::string& algo) {
  return e.algo.empty() || canonical_algo(e.algo) == canonical_algo(algo);
}

}  // namespace

std::string canonical_algo(std::string_view algo) {
  std::string out;
  for (const char c : algo)
    if (c != '_') out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Expected::source() const {
  return fmt::format("{}, {}{}{}", row.source, row.date,
                     row.kind == ExpectationKind::acceptance ? ", a pass line" : "",
                     row.single_report ? ", a single public report" : "");
}

std::vector<ExpectationRow> expectation_rows(const Result& r) {
  const auto builtin = builtin_expectations();
  if (!r.expectations) return {builtin.begin(), builtin.end()};
  std::set<std::pair<std::string, std::string>> site_figures;  // (model, figure) the site measured
  for (const auto& e : r.expectations->rows) site_figures.emplace(e.gpu, e.figure);
  std::vector<ExpectationRow> rows = r.expectations->rows;
  for (const auto& e : builtin)
    if (!site_figures.contains({e.gpu, e.figure})) rows.push_back(e);
  return rows;
}

std::optional<Expected> expected_for(const Result& r, const ExpectationQuery& q) {
  const std::string model = gpu_model_key(q.gpu_name);
  for (const auto& e : expectation_rows(r)) {
    if (!row_holds(e, model, q) || !algo_holds(e, q.algo)) continue;
    if (q.bytes < e.min_bytes || q.bytes > e.max_bytes) continue;
    return Expected{e.value, e};
  }
  return std::nullopt;
}

std::optional<Expected> expected_for(const std::string& gpu_name, int gpus, std::string_view figure,
                                     std::uint64_t bytes) {
  return expected_for(Result{}, {gpu_name, gpus, 1, std::string(figure), bytes, ""});
}

bool has_row_for_algo(const Result& r, const ExpectationQuery& q, std::string_view algo) {
  const std::string model = gpu_model_key(q.gpu_name);
  const auto rows = expectation_rows(r);
  return std::any_of(rows.begin(), rows.end(), [&](const ExpectationRow& e) {
    return row_holds(e, model, q) && !e.algo.empty() && canonical_algo(e.algo) == canonical_algo(algo);
  });
}

int result_hosts(const Result& r) {
  std::set<std::string> hosts;
  for (const auto& g : r.gpus)
    if (!g.host.empty()) hosts.insert(g.host);
  return std::max<int>(1, static_cast<int>(hosts.size()));
}

std::string gpu_name(const Result& r, const std::vector<int>& gpus) {
  const int first = gpus.empty() ? 0 : gpus.front();
  for (const auto& g : r.gpus)
    if (g.index == first && !g.name.empty()) return g.name;
  if (r.topology)
    if (const auto* g = r.topology->find_gpu(first); g && !g->name.empty()) return g->name;
  return r.gpus.empty() ? "" : r.gpus.front().name;
}

double expectation_tolerance(const Expected& e, double relative_interval) {
  const double own = std::isfinite(relative_interval) ? relative_interval : 0.0;
  if (e.row.tolerance >= 0) return e.row.tolerance + own;
  return (e.row.kind == ExpectationKind::acceptance ? 0.0 : kTypicalTolerance) + own;
}

std::string HeadlineFigure::percent_text() const {
  if (!label.empty()) return label;
  if (expected <= 0 && reach > 0 && ring_ceiling > 0)
    return fmt::format("no expectation for this machine; healthy rings reach {:.0f}% of the ring's ceiling",
                       reach / ring_ceiling * 100);
  if (expected <= 0) return "no expectation for this machine";
  if (unit == "ns") return fmt::format("{:.0f}% of the expected latency", measured / expected * 100);
  return fmt::format("{:.0f}% of expected", measured / expected * 100);
}

std::string_view figure_unit(std::string_view figure) { return figure.ends_with("latency") ? "ns" : "GB/s"; }

std::string_view expectation_figure(P2pTest test) {
  switch (test) {
    case P2pTest::ce_read:
      return "pair";
    case P2pTest::h2d:
    case P2pTest::d2h:
      return "host";
    case P2pTest::h2d_sm:
      return "h2d_sm";
    case P2pTest::d2h_sm:
      return "d2h_sm";
    case P2pTest::local_copy:
      return "local_copy";
    case P2pTest::host_latency:
      return "host_latency";
    default:
      return "";
  }
}

namespace {

HeadlineFigure collective_headline(const Result& r, const Run& run, const Point& p) {
  HeadlineFigure h;
  h.figure = fmt::format("{} busbw at {}", run.collective, format_bytes(p.bytes));
  h.collective = run.collective;
  h.gpus = run.gpus.size();
  h.bytes = p.bytes;
  h.measured = p.busbw_gbps;
  const auto shown = shown_ceiling(r, run, p);
  h.ceiling = shown.gbps;
  h.not_a_ring = shown.not_a_ring;
  const auto w = what_ran(r, run, p);
  if (const auto nic = above_nic_sum(r, run, p, w)) {
    h.label =
        fmt::format("above the NIC sum {:.0f} GB/s: {}, not comparable", nic->value,
                    w.algo.empty() ? "busbw of an algorithm NCCL's log did not name" : w.algo + " busbw");
    return h;
  }
  if (const auto e = collective_expectation(r, run, p)) {  // the one every view shows
    h.floor_share = 1 - e->tolerance;
    if (e->from_table) {
      h.expected = e->value;
      h.expected_source = e->source;
    } else {
      h.reach = e->value;
      h.ring_ceiling = run_ring_ceiling(r, run).gbps;
      h.reach_source = e->source;
    }
  }
  return h;
}

// A size other than the largest below its expectation's floor: the one furthest below, or none.
const Point* furthest_below(const Result& r, const Run& run, const Point& largest) {
  const Point* worst = nullptr;
  double worst_share = 1;
  for (const auto& p : run.points) {
    if (&p == &largest || p.busbw_gbps <= 0) continue;
    const auto e = collective_expectation(r, run, p);
    if (!e || p.busbw_gbps >= e->floor()) continue;
    if (const double share = p.busbw_gbps / e->value; worst == nullptr || share < worst_share) {
      worst = &p;
      worst_share = share;
    }
  }
  return worst;
}

void add_collective_headlines(const Result& r, const Run& run, std::vector<HeadlineFigure>& out) {
  const auto& largest = *std::max_element(run.points.begin(), run.points.end(),
                                          [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
  if (const Point* below = furthest_below(r, run, largest))
    out.push_back(collective_headline(r, run, *below));
  out.push_back(collective_headline(r, run, largest));
}

// A figure of one GPU on its own: its host link (against the link as trained now), its memory, its
// host latency.
HeadlineFigure gpu_headline(const Result& r, const P2pMeasurement& m) {
  const auto& spec = p2p_test_spec(m.test);
  const int gpu = m.dst < 0 ? m.src : m.dst;
  HeadlineFigure h;
  h.figure = fmt::format("{} GPU{}", m.test, gpu);
  h.of_one_gpu = true;
  h.unit = spec.unit == P2pUnit::ns ? "ns" : "GB/s";
  h.measured = m.value;
  const auto* g = r.topology ? r.topology->find_gpu(gpu) : nullptr;
  if (g && over_host_link(m.test) && spec.unit == P2pUnit::gbps)
    h.ceiling = host_ce_ceiling(*g, false, spec.copier == P2pCopier::sm).gbps;
  if (const auto figure = expectation_figure(m.test); !figure.empty() && !spec.every_gpu)
    if (const auto e = expected_for(r, {gpu_name(r, {gpu}), 0, 1, std::string(figure), 0, ""})) {
      h.expected = e->value;
      h.expected_source = e->source();
      h.floor_share = 1 - kTypicalTolerance;
    }
  return h;
}

}  // namespace

std::vector<HeadlineFigure> headline_figures(const Result& r) {
  std::vector<HeadlineFigure> out;
  for (const auto& run : r.runs)
    if (run.kind == RunKind::collective && !run.points.empty() && run.gpus.size() >= 2)
      add_collective_headlines(r, run, out);
  for (const auto& m : r.p2p)
    if (p2p_test_spec(m.test).path != P2pPath::peer && m.samples > 0) out.push_back(gpu_headline(r, m));
  return out;
}

}  // namespace fb
