#include "analyse/expect/port_figures.hpp"

#include <array>
#include <cmath>

namespace fb {
namespace {

// Published per-port figures: a ring's busbw per NIC between hosts, by link rate in Gb/s (the links
// and quotes: docs/verdicts.md, "Across hosts").
struct Published {
  double rate_gbps;
  double busbw_gbps;
  std::string_view source;
};

constexpr std::array kPublished{
    Published{400, 48, "NVIDIA, nccl-tests #290 and #267"},
    Published{200, 24, "NVIDIA, nccl-tests #119 and nccl #1576"},
    Published{100, 12, "NVIDIA, nccl-tests #119"},
};

// Other rates: the 400G figure's share of its line rate (48 of 50 GB/s).
constexpr double kLineShare = 48.0 / 50.0;
constexpr double kBitsPerByte = 8;
constexpr std::string_view kScaled = "96% of the line rate as at 400G, a rule of thumb";

}  // namespace

PortFigure ring_port_figure(double rate_gbps) {
  if (!(rate_gbps > 0) || !std::isfinite(rate_gbps)) return {};
  for (const auto& p : kPublished)
    if (std::abs(p.rate_gbps - rate_gbps) < 0.5) return {p.busbw_gbps, p.source, false};
  return {rate_gbps / kBitsPerByte * kLineShare, kScaled, true};
}

}  // namespace fb
