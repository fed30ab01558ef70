#include "analyse/expect/expected_figure.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/cross_host_expectation.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/expect/what_ran.hpp"
#include "analyse/scope/gpu_names.hpp"

namespace fb {
namespace {

// The tolerance BUSBW_BELOW_CEILING allows below the healthy reach (analyse/run/collective_verdicts.cpp).
constexpr double kReachTolerance = 0.10;

bool is_largest(const Run& run, const Point& p) {
  return std::none_of(run.points.begin(), run.points.end(),
                      [&](const Point& q) { return q.bytes > p.bytes; });
}

std::optional<PointExpectation> reach_expectation(const Result& r, const Run& run, const Point& p) {
  // run_on_fabric is false across hosts: a cross-host ring is not held against one host's NVLink.
  if (p.bytes < kCeilingJudgedBytes || !is_largest(run, p) || !run_on_fabric(r, run)) return std::nullopt;
  const auto c = run_ring_ceiling(r, run);
  if (!c.known()) return std::nullopt;
  const double reach = fabric_reach(run.collective, p.bytes);
  return PointExpectation{
      reach * c.gbps,
      fmt::format("what healthy rings reach: {:.0f}% of the ring's SM ceiling {:.1f} GB/s (nccl-tests on 2 x "
                  "H200, docs/verdicts.md)",
                  reach * 100, c.gbps),
      kReachTolerance + interval(p), false};
}

}  // namespace

std::optional<PointExpectation> expected_of_point(const Result& r, const Run& run, const Point& p,
                                                  const WhatRan& w) {
  if (const auto e = expected_for(r, collective_query(r, run, p, w)))
    return PointExpectation{e->value, e->source(), expectation_tolerance(*e, interval(p)), true};
  if (result_hosts(r) < 2 || p.bytes < nic_figure_from_bytes(run)) return std::nullopt;
  const auto f = cross_host_figure(r, run, w);
  if (f.value <= 0) return std::nullopt;
  return PointExpectation{f.value, f.source, kTypicalTolerance + interval(p), true};
}

std::optional<PointExpectation> collective_expectation(const Result& r, const Run& run, const Point& p) {
  if (run.kind != RunKind::collective || run.gpus.size() < 2) return std::nullopt;
  // The row of what ran (analyse/expect/what_ran.hpp); an algorithm above the NICs' sum is labelled, not
  // judged.
  const auto w = what_ran(r, run, p);
  if (above_nic_sum(r, run, p, w)) return std::nullopt;
  if (auto e = expected_of_point(r, run, p, w)) return e;
  return reach_expectation(r, run, p);
}

ShownCeiling shown_ceiling(const Result& r, const Run& run, const Point& p) {
  if (const auto w = what_ran(r, run, p); switch_reduces(w)) return {0, w.algo};
  return {run_ring_ceiling(r, run).gbps, ""};
}

}  // namespace fb
