#include "analyse/expect/expected_figure.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/cross_host_expectation.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/expect/hardware_bound.hpp"
#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/expect/what_ran.hpp"
#include "analyse/scope/gpu_names.hpp"

namespace fb {
namespace {

std::optional<PointExpectation> bound_expectation(const Result& r, const Run& run, const Point& p,
                                                  const WhatRan& w) {
  const auto b = hardware_bound(r, run, p, w);
  if (!b) return std::nullopt;
  return PointExpectation{b->reach, b->source, b->tolerance, false, b->ceiling};
}

}  // namespace

std::optional<PointExpectation> expected_of_point(const Result& r, const Run& run, const Point& p,
                                                  const WhatRan& w) {
  if (const auto e = expected_for(r, collective_query(r, run, p, w)))
    return PointExpectation{e->value, e->source(), expectation_tolerance(*e, interval(p)), true};
  if (nccl_hosts(r, run) < 2 || p.bytes < nic_figure_from_bytes(run)) return std::nullopt;
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
  return bound_expectation(r, run, p, w);
}

ShownCeiling shown_ceiling(const Result& r, const Run& run, const Point& p) {
  if (const auto w = what_ran(r, run, p); switch_reduces(w)) return {0, w.algo};
  const auto f = run_fabric(r, run);
  return {f ? f->ring.gbps : 0.0, ""};
}

}  // namespace fb
