#pragma once
// The headline's words, one builder for every view (the banner, summary.md, `report`'s console and the
// tables' cells): each figure in the headline table's own figures and words, the figure furthest below
// what it is held against, and where the figures stand as a whole. A percent of the ring's ceiling is
// said as "of the ring's ceiling", never "of expected"; a figure with no row says "no expectation".
#include <optional>
#include <string>
#include <vector>

#include "analyse/expect/expectations.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "model/result.hpp"

namespace fb {

// One figure as the headline table shows it:
//   "all_reduce busbw at 4 GiB: 45.7 GB/s, 15% of expected 314.7 GB/s"
//   "all_reduce busbw at 1 GiB: 331.0 GB/s, 100% of the bound 331.0 GB/s its hardware gives (no published
//    row: a healthy run reaches 89% of the ring's ceiling 373.5 GB/s there)"
//   "host_latency GPU0: 1194.0 ns, 101% of the expected latency 1181.0 ns"
//   "h2d GPU0: 55.4 GB/s, no expectation for this machine"
std::string figure_sentence(const HeadlineFigure& h);

// The headline figure furthest below what it is held against (its table row, or what healthy rings
// reach of the ring's ceiling), as a share of that; nullopt when no figure is held against anything.
struct Shortfall {
  HeadlineFigure figure;
  double share = 0;  // measured / reference (latency: reference / measured)
  bool below_floor = false;
  [[nodiscard]] bool from_table() const { return figure.expected > 0; }
};
std::optional<Shortfall> worst_shortfall(const std::vector<HeadlineFigure>& figures);
std::optional<Shortfall> worst_shortfall(const Result& r);

// Where the figures stand when none is below its floor: "the figures meet their expectations" only
// where every figure held against something has a row; "no expectation for this machine" where none has.
std::string expectations_standing(const std::vector<HeadlineFigure>& figures);

}  // namespace fb
