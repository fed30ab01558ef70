#include "analyse/hosts/cluster_limit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <utility>

#include "analyse/expect/network_bound.hpp"

namespace fb {
namespace {

// The largest all_reduce point measured across the hosts and its run, or nulls.
std::pair<const Run*, const Point*> largest_all_reduce(const Result& r) {
  std::pair<const Run*, const Point*> best{nullptr, nullptr};
  for (const auto& run : r.runs)
    if (run.kind == RunKind::collective && run.collective == "all_reduce")
      for (const auto& p : run.points)
        if (best.second == nullptr || p.bytes > best.second->bytes) best = {&run, &p};
  return best;
}

// "; the weakest host node03: its IB/RoCE ports bound a ring at 312.0 GB/s (...), the others' at up to
// 384.0 GB/s"; "" where the hosts' ports give no bound.
std::string weakest_host(const Result& r, const Run* run) {
  if (run == nullptr) return "";
  const auto b = network_bound(r, *run);
  if (!b.known()) return "";
  const auto& w = b.limit();
  if (!b.uneven())
    return fmt::format("; every host's IB/RoCE ports bound a ring at {:.1f} GB/s ({})", w.ring_gbps,
                       w.ports_text());
  double most = 0;
  for (const auto& h : b.hosts) most = std::max(most, h.ring_gbps);
  return fmt::format(
      "; the weakest host {}: its IB/RoCE ports bound a ring at {:.1f} GB/s ({}; {}), the others' "
      "at up to {:.1f} GB/s",
      w.host, w.ring_gbps, w.ports_text(), w.gdr, most);
}

std::string network_of(const Result& r) {
  std::set<std::string> nets;
  std::set<std::string> nics;
  for (const auto& run : r.runs) {
    for (const auto& t : run.nccl_transports)
      if (t.starts_with("NET/")) nets.insert(t.substr(0, t.find('/', 4)));
    if (run.nccl_nics)
      for (const auto& n : *run.nccl_nics)
        nics.insert(n.port > 0 ? fmt::format("{}:{}", n.device, n.port) : n.device);
  }
  if (nets.empty()) return "";
  return fmt::format("{}{}", fmt::join(nets, ", "),
                     nics.empty() ? std::string() : fmt::format(" over {}", fmt::join(nics, ", ")));
}

// The most GPUs one host has: with one, nothing but the network joins them.
std::size_t most_gpus_per_host(const Result& r) {
  std::size_t most = 0;
  for (const auto& s : r.hosts) most = std::max(most, s.ranks.size());
  return most;
}

// The lowest and highest busbw of the pairs that satisfy `keep`, in words; "" when none does.
template <typename Keep>
std::string pair_range(const NodesInfo& n, Keep keep) {
  double lo = 0;
  double hi = 0;
  int count = 0;
  for (const auto& p : n.pairs) {
    if (!p.failure.empty() || !keep(p)) continue;
    lo = count == 0 ? p.busbw_gbps : std::min(lo, p.busbw_gbps);
    hi = count == 0 ? p.busbw_gbps : std::max(hi, p.busbw_gbps);
    ++count;
  }
  if (count == 0) return "";
  const std::string range = fmt::format("{:.2f}", lo) == fmt::format("{:.2f}", hi)
                                ? fmt::format("{:.2f}", lo)
                                : fmt::format("{:.2f}-{:.2f}", lo, hi);
  return fmt::format("{} pair{} at {} GB/s", count, count == 1 ? "" : "s", range);
}

}  // namespace

std::string slow_host_words(const Result& r) {
  if (r.hosts.size() < 2 && !r.nodes) return "";
  if (!r.nodes || r.nodes->pairs.empty()) {
    if (r.hosts.size() == 2)
      return "which host is slow cannot be told with 2 hosts: their one pair is as slow as its slower host; "
             "run `fabricbench nodes` (or the doctor) with a third host";
    return "the pairs of hosts were not measured, so no host is named slow; `fabricbench nodes` measures "
           "them";
  }
  const auto& n = *r.nodes;
  const std::string reference =
      fmt::format("the reference {:.2f} GB/s (slow below {:.2f})", n.reference_gbps, n.slow_below_gbps);
  const auto all = pair_range(n, [](const NodePair&) { return true; });
  if (n.named.empty() && !n.cut.empty())  // the doctor's rounds stopped early: NODE_NOT_JUDGED says which
    return fmt::format(
        "no host named, but the hosts were not all judged: the pairs of hosts {}; {} against {}", n.cut, all,
        reference);
  if (n.named.empty()) return fmt::format("no host is slow: {} against {}", all, reference);
  std::vector<std::string> each;
  each.reserve(n.named.size());
  for (const auto& host : n.named)
    each.push_back(fmt::format("{} ({})", host,
                               pair_range(n, [&](const NodePair& p) { return p.a == host || p.b == host; })));
  return fmt::format("{} {} slow, against {}", fmt::join(each, ", "), n.named.size() == 1 ? "is" : "are",
                     reference);
}

std::string cluster_limit(const Result& r) {
  if (r.hosts.size() < 2) return "";
  const auto net = network_of(r);
  const auto [run, p] = largest_all_reduce(r);
  const std::string figure =
      p == nullptr ? std::string()
                   : fmt::format(" (all_reduce busbw {:.2f} GB/s at {} B)", p->busbw_gbps, p->bytes);
  if (net.empty())
    return fmt::format("not known: NCCL's transports between the hosts were not read{}{}", figure,
                       weakest_host(r, run));
  const std::string inside = most_gpus_per_host(r) > 1
                                 ? "; the GPU links inside each host are not the limit: "
                                   "every ring crosses the network"
                                 : "; each host has one rank, so nothing else joins them";
  return fmt::format("the network between the hosts: NCCL's {}{}{}{}", net, figure, weakest_host(r, run),
                     inside);
}

}  // namespace fb
