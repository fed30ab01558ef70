#include "analyse/verdict/headline_words.hpp"

#include <fmt/format.h>

#include "analyse/verdict/headline_figures.hpp"

namespace fb {
namespace {

double share_of(const HeadlineFigure& h) {
  const double ref = h.reference();
  if (ref <= 0 || h.measured <= 0) return 0;
  return h.unit == "ns" ? ref / h.measured : h.measured / ref;
}

}  // namespace

std::string figure_sentence(const HeadlineFigure& h) {
  const auto measured = fmt::format("{}: {:.1f} {}", h.figure, h.measured, h.unit);
  if (!h.label.empty()) return fmt::format("{}, {}", measured, h.label);
  if (h.expected > 0) return fmt::format("{}, {} {:.1f} {}", measured, h.percent_text(), h.expected, h.unit);
  if (h.reach > 0 && h.ring_ceiling > 0)
    return fmt::format(
        "{}, {:.0f}% of the bound {:.1f} GB/s (no published row: what a healthy run of its hardware reaches "
        "there, "
        "{:.0f}% of the ring's ceiling {:.1f} GB/s)",
        measured, h.measured / h.reach * 100, h.reach, h.reach / h.ring_ceiling * 100, h.ring_ceiling);
  return fmt::format("{}, no expectation for this machine", measured);
}

std::optional<Shortfall> worst_shortfall(const std::vector<HeadlineFigure>& figures) {
  std::optional<Shortfall> worst;
  for (const auto& h : figures) {
    const double share = share_of(h);
    if (share <= 0 || (worst && share >= worst->share)) continue;
    worst = Shortfall{h, share, share < h.floor_share};
  }
  return worst;
}

std::optional<Shortfall> worst_shortfall(const Result& r) { return worst_shortfall(headline_figures(r)); }

std::string expectations_standing(const std::vector<HeadlineFigure>& figures) {
  std::size_t rows = 0;
  std::size_t reach = 0;
  std::size_t none = 0;
  for (const auto& h : figures) {
    if (h.expected > 0)
      ++rows;
    else if (h.reach > 0)
      ++reach;
    else
      ++none;
  }
  if (rows > 0 && reach + none == 0) return "the figures meet their expectations";
  if (rows > 0)
    return fmt::format("the {} figure{} with an expectation meet{} it; {} {} none", rows,
                       rows == 1 ? "" : "s", rows == 1 ? "s" : "", reach + none,
                       reach + none == 1 ? "has" : "have");
  if (reach > 0)
    return "no published row for this machine; the collectives reach the bound their hardware gives";
  return "no expectation for this machine";
}

}  // namespace fb
