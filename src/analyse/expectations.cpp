#include "analyse/expectations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analyse/ceilings.hpp"
#include "analyse/expected_figure.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

// Tolerance below a typical figure (docs/verdicts.md, "Thresholds"): the published spread
// between healthy machines of one kind (8 x H100 ring 360-370, 8 x MI300X 310-330: up to +-3%),
// the fidelity bar between tools (3%) and our run-to-run spread (1 GiB all_reduce 328.0-333.5
// GB/s over four runs: +-1%), about 7%, rounded up.
constexpr double kTypicalTolerance = 0.10;

bool name_matches(const std::string& name, std::string_view gpu) {
  const std::string n = lower(name);
  if (n.find("pcie") != std::string::npos || n.find(" nvl") != std::string::npos) return false;
  return n.find(gpu) != std::string::npos;
}

}  // namespace

std::string Expected::source() const {
  if (entry == nullptr) return "";
  return fmt::format("{}, {}{}", entry->source, entry->date,
                     entry->kind == ExpectationKind::acceptance ? ", a pass line" : "");
}

std::optional<Expected> expected_for(const std::string& gpu_name, int gpus, std::string_view figure,
                                     std::uint64_t bytes) {
  for (const auto& e : sku_table()) {
    if (e.figure != figure || !name_matches(gpu_name, e.gpu)) continue;
    if (e.gpus != 0 && e.gpus != gpus) continue;
    if (e.max_bytes > 0 && (bytes < e.min_bytes || bytes > e.max_bytes)) continue;
    return Expected{e.value, &e};
  }
  return std::nullopt;
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
  const bool pass_line = e.entry != nullptr && e.entry->kind == ExpectationKind::acceptance;
  return (pass_line ? 0.0 : kTypicalTolerance) + own;
}

std::string HeadlineFigure::percent_text() const {
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

HeadlineFigure collective_headline(const Result& r, const Run& run) {
  const auto& p = *std::max_element(run.points.begin(), run.points.end(),
                                    [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
  HeadlineFigure h;
  h.figure = fmt::format("{} busbw at {}", run.collective, format_bytes(p.bytes));
  h.measured = p.busbw_gbps;
  if (r.topology) h.ceiling = ring_ceiling(*r.topology, run.gpus).gbps;
  if (const auto e = collective_expectation(r, run, p)) {  // the one every view shows
    h.expected = e->value;
    h.expected_source = e->source;
  }
  return h;
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
    if (const auto e = expected_for(gpu_name(r, {gpu}), 0, figure, 0)) {
      h.expected = e->value;
      h.expected_source = e->source();
    }
  return h;
}

}  // namespace

std::vector<HeadlineFigure> headline_figures(const Result& r) {
  std::vector<HeadlineFigure> out;
  for (const auto& run : r.runs)
    if (run.kind == RunKind::collective && !run.points.empty() && run.gpus.size() >= 2)
      out.push_back(collective_headline(r, run));
  for (const auto& m : r.p2p)
    if (p2p_test_spec(m.test).path != P2pPath::peer && m.samples > 0) out.push_back(gpu_headline(r, m));
  return out;
}

}  // namespace fb
