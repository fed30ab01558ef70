#include "analyse/verdict/headline_figures.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/cross_host_expectation.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/expect/expected_figure.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/expect/what_ran.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "core/units.hpp"

namespace fb {

std::string HeadlineFigure::percent_text() const {
  if (!label.empty()) return label;
  if (expected <= 0 && reach > 0 && ring_ceiling > 0)
    return fmt::format(
        "{:.0f}% of the bound (no published row: a healthy run reaches {:.0f}% of the ring's "
        "ceiling here)",
        measured / reach * 100, reach / ring_ceiling * 100);
  if (expected <= 0) return "no expectation for this machine";
  if (unit == "ns") return fmt::format("{:.0f}% of the expected latency", measured / expected * 100);
  return fmt::format("{:.0f}% of expected", measured / expected * 100);
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
      h.ring_ceiling = e->ceiling;
      h.reach_source = e->source;
    }
  }
  return h;
}

// A size other than the largest below its expectation's floor: the one furthest below, or none.
// Each size by its best variant, as the rules judge it (analyse/expect/reach.hpp, best_per_size).
const Point* furthest_below(const Result& r, const Run& run, const Point& largest) {
  const Point* worst = nullptr;
  double worst_share = 1;
  for (const Point* p : best_per_size(run)) {
    if (p == &largest || p->busbw_gbps <= 0) continue;
    const auto e = collective_expectation(r, run, *p);
    if (!e || p->busbw_gbps >= e->floor()) continue;
    if (const double share = p->busbw_gbps / e->value; worst == nullptr || share < worst_share) {
      worst = p;
      worst_share = share;
    }
  }
  return worst;
}

void add_collective_headlines(const Result& r, const Run& run, std::vector<HeadlineFigure>& out) {
  const auto sizes = best_per_size(run);
  const auto& largest = *sizes.back();
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
