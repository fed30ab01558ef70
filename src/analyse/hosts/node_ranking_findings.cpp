#include "analyse/hosts/node_ranking_findings.hpp"

#include <fmt/format.h>

namespace fb {
namespace {

constexpr std::size_t kPairsCited = 8;  // a 1024-host round robin gives a host 1023 pairs

std::string reference_words(const NodeRanking& r) {
  if (r.reference_given) return fmt::format("the given reference {:.1f} GB/s", r.reference_gbs);
  if (r.reference_from == ReferenceFrom::fastest)
    return fmt::format("the reference {:.1f} GB/s, the fastest of {} pairs", r.reference_gbs,
                       r.reference_pairs);
  return fmt::format("the reference {:.1f} GB/s, the median of {} pairs", r.reference_gbs, r.reference_pairs);
}

std::string expected_words(const NodeRanking& r) {
  return fmt::format("every pair at least {:.1f} GB/s ({:.0f}% of the reference)", r.slow_below_gbs,
                     r.slow_share * 100);
}

std::string cited_pairs(const NamedHost& h, const NodeRanking& r, const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < h.pairs.size() && i < kPairsCited; ++i) {
    const auto& p = h.pairs[i];
    out += fmt::format("{}with {} {:.1f} GB/s ({:.0f}%)", i == 0 ? "" : ", ",
                       host_name(p.a == h.host ? p.b : p.a, names), p.busbw_gbs,
                       p.busbw_gbs / r.reference_gbs * 100);
  }
  if (h.pairs.size() > kPairsCited) out += fmt::format(" and {} more", h.pairs.size() - kPairsCited);
  return out;
}

std::string peer_words(const NamedHost& h) {
  if (h.peer_pairs == 0) return "its peers have no other pairs";
  return fmt::format("its peers' {} other pairs at {:.0f}-{:.0f}%", h.peer_pairs, h.peer_min_share * 100,
                     h.peer_max_share * 100);
}

// A chance in words.
std::string how_often(double chance) {
  return chance < 1e-9 ? "less than once in 10^9" : fmt::format("with a chance of {:.2g}", chance);
}

// How sure the naming is: the chance that a healthy host, its pairs spread as the healthy pairs do,
// shows as many slow pairs of as many.
std::string chance_words(const NamedHost& h) {
  if (h.healthy_chance < 0) return "";
  return "; a healthy host shows as many slow pairs " + how_often(h.healthy_chance);
}

std::string pair_names(const PairFigure& p, const std::vector<std::string>& names) {
  return host_name(p.a, names) + "-" + host_name(p.b, names);
}

// A host named for the ranks of its pairs: below its peers' other pairs, each of its pairs, beyond chance.
std::string ranked_low_words(const NamedHost& h, const NodeRanking& r,
                             const std::vector<std::string>& names) {
  return fmt::format(
      "{}: its {} pairs rank below its peers' other pairs (a healthy host's rank that low {}): {}; "
      "its median {:.0f}% of {}; {}",
      host_name(h.host, names), h.pairs.size(), how_often(h.healthy_chance), cited_pairs(h, r, names),
      h.share * 100, reference_words(r), peer_words(h));
}

}  // namespace

std::string host_name(int host, const std::vector<std::string>& names) {
  const auto i = static_cast<std::size_t>(host);
  return i < names.size() ? names[i] : fmt::format("host {}", host);
}

Finding slow_host_finding(const NamedHost& host, const NodeRanking& r,
                          const std::vector<std::string>& names) {
  const auto name = host_name(host.host, names);
  return {
      "NODE_SLOW",
      Severity::error,
      host.ranked_low
          ? ranked_low_words(host, r, names)
          : fmt::format(
                "{}: {} of its {} pairs below {:.1f} GB/s ({:.0f}% of {}){}: {}; its median {:.0f}% of the "
                "reference; {}{}",
                name, host.slow_pairs, host.pairs.size(), r.slow_below_gbs, r.slow_share * 100,
                reference_words(r),
                host.intermittent ? ", each with a partner whose other pairs are not slow: slow now and then"
                                  : "",
                cited_pairs(host, r, names), host.share * 100, peer_words(host), chance_words(host)),
      expected_words(r),
      fmt::format("leave {} out of jobs (the exclude file) and check its NICs, their link state and PCIe "
                  "path (fabricbench doctor on {})",
                  name, name),
      name};
}

Finding slow_link_finding(const PairFigure& pair, const NodeRanking& r,
                          const std::vector<std::string>& names) {
  return {
      "NODE_SLOW_LINK", Severity::warning,
      fmt::format("{}: {:.1f} GB/s is {:.0f}% of the reference {:.1f} GB/s; both hosts' other pairs are not "
                  "slow, so the path between them is",
                  pair_names(pair, names), pair.busbw_gbs, pair.busbw_gbs / r.reference_gbs * 100,
                  r.reference_gbs),
      expected_words(r),
      "check the switches and cables between these two hosts (their route through the fabric)"};
}

Finding undecided_finding(const NodeRanking& r, const std::vector<std::string>& names,
                          const RankingRule& rule) {
  std::string pairs;
  for (const auto& p : r.undecided)
    pairs += fmt::format("{}{} {:.1f} GB/s", pairs.empty() ? "" : ", ", pair_names(p, names), p.busbw_gbs);
  return {"NODE_TOO_FEW_PAIRS", Severity::info,
          fmt::format("slow pairs {} (below {:.1f} GB/s) have a host with fewer than {} pairs: too few pairs "
                      "to tell which host is slow",
                      pairs, r.slow_below_gbs, rule.min_pairs_per_host),
          fmt::format("at least {} pairs per host", rule.min_pairs_per_host),
          "measure these hosts against more peers"};
}

Finding too_few_pairs_finding(const NodeRanking& r, std::size_t pair_count) {
  return {"NODE_TOO_FEW_PAIRS", Severity::info,
          fmt::format(
              "{} pair{} (median {:.1f} GB/s): with fewer than {} pairs a slow pair cannot be told from a "
              "slow host; no host is named",
              pair_count, pair_count == 1 ? "" : "s", r.reference_gbs, kMinPairsForFastest),
          fmt::format("at least {} pairs (3 hosts), or a given reference: a pair slow below {:.0f}% of it",
                      kMinPairsForFastest, r.slow_share * 100),
          "give the busbw a healthy pair of these hosts reaches as the reference, or measure more hosts"};
}

}  // namespace fb
