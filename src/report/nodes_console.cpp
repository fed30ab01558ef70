#include "report/nodes_console.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>

#include "core/units.hpp"
#include "report/topology_console.hpp"

namespace fb {
namespace {

std::string share_words(const NodePair& p, const NodesInfo& n) {
  if (!p.failure.empty()) return "no figure: " + p.failure;
  if (n.reference_gbps <= 0) return "";
  const double share = p.busbw_gbps / n.reference_gbps;
  return fmt::format("{:.0f}%{}", share * 100, p.busbw_gbps < n.slow_below_gbps ? "  SLOW" : "");
}

void print_pairs(std::ostream& out, const NodesInfo& n) {
  std::size_t width = 4;
  for (const auto& p : n.pairs) width = std::max(width, p.a.size() + p.b.size() + 1);
  fmt::print(out, "{:>5}  {:<{}}  {:>10}  {:>10}  {}\n", "round", "pair", width, "busbw GB/s", "time us",
             "of the reference");
  for (const auto& p : n.pairs)
    fmt::print(out, "{:>5}  {:<{}}  {:>10.2f}  {:>10.1f}  {}\n", p.round, p.a + "-" + p.b, width,
               p.busbw_gbps, p.time_us, share_words(p, n));
}

}  // namespace

void print_nodes(std::ostream& out, const Result& result) {
  if (!result.nodes) return;
  const auto& n = *result.nodes;
  fmt::print(out, "# nodes: {} {} per pair, {}: {} of {} planned rounds run, {:.1f} s a round\n",
             n.collective, format_bytes(n.bytes), n.mode, n.pairs.empty() ? 0 : n.pairs.back().round,
             n.rounds_planned, n.seconds_per_round);
  print_pairs(out, n);
  if (n.reference_gbps > 0)
    fmt::print(out, "# reference {:.2f} GB/s ({}); a pair is slow below {:.2f} GB/s\n", n.reference_gbps,
               n.reference_from, n.slow_below_gbps);
  if (n.named.empty())
    fmt::print(out, "# named: none\n");
  else
    fmt::print(out, "# named: {} (exclude list: {})\n", fmt::join(n.named, ", "), n.exclude);
  print_findings(out, result.findings);
  if (!result.failure.empty()) fmt::print(out, "# stopped early: {}\n", result.failure);
  out.flush();
}

}  // namespace fb
