#pragma once
// The one figure every view holds a collective point against (the chart's marks, the HTML, Markdown
// and console tables, the banner) and the findings judge it by: the expectation table's entry
// (analyse/expect/expectations.hpp) where it has one, across hosts the figure of the hosts' NICs, else the
// bound derived from the hardware at every size where bandwidth dominates (analyse/expect/hardware_bound.hpp:
// BUSBW_BELOW_CEILING's reach, `from_table` false). The words say which
// (analyse/verdict/headline_words.hpp): a bound is a share of the ring's ceiling, never "expected".
#include <optional>
#include <string>

#include "analyse/expect/what_ran.hpp"
#include "model/result.hpp"

namespace fb {

struct PointExpectation {
  double value = 0;        // busbw, GB/s
  std::string source;      // where the figure comes from
  double tolerance = 0;    // relative: below value x (1 - tolerance) the rules report a finding
  bool from_table = true;  // false: the bound derived from the hardware, a share of `ceiling`
  double ceiling = 0;      // from_table false: the ring's ceiling the bound is a share of
  [[nodiscard]] double floor() const { return value * (1 - tolerance); }
};

// The expectation for `p` of `run` (a collective run of 2 or more GPUs); nullopt where the rules
// hold the point against nothing.
std::optional<PointExpectation> collective_expectation(const Result& r, const Run& run, const Point& p);

// The expectation of what ran at `p`: the table's row where one holds; across hosts, else the figure
// computed from the hosts' NICs (analyse/expect/cross_host_expectation.hpp) from the sizes it holds for;
// nullopt otherwise. Not the ceiling's reach: that is collective_expectation's fallback.
std::optional<PointExpectation> expected_of_point(const Result& r, const Run& run, const Point& p,
                                                  const WhatRan& w);

// The ring's SM ceiling every view shows beside a collective point, as a ceiling: none (0) across
// hosts (one host's NVLink does not bound them) and none where NVLS or NVLSTree ran (they reduce in
// the switch, above the ring's bound), which `not_a_ring` then names ("NVLS").
struct ShownCeiling {
  double gbps = 0;
  std::string not_a_ring;
};
ShownCeiling shown_ceiling(const Result& r, const Run& run, const Point& p);

}  // namespace fb
