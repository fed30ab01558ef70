#include "bench/collective_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <vector>

#include "core/error.hpp"

namespace fb {
namespace {

double factor_all_reduce(int n) { return n > 1 ? 2.0 * (n - 1) / n : 0.0; }
double factor_gather_like(int n) { return n > 1 ? static_cast<double>(n - 1) / n : 0.0; }
double factor_one(int /*n*/) { return 1.0; }

CollectiveCounts same_counts(std::size_t c, int /*n*/, std::size_t /*elem*/) {
  return {c, c, c, false, false};
}
CollectiveCounts all_gather_counts(std::size_t c, int n, std::size_t /*elem*/) {
  const std::size_t per = c / static_cast<std::size_t>(n);
  return {per, per * n, per, true, false};
}
CollectiveCounts reduce_scatter_counts(std::size_t c, int n, std::size_t /*elem*/) {
  const std::size_t per = c / static_cast<std::size_t>(n);
  return {per * n, per, per, false, true};
}
CollectiveCounts alltoall_counts(std::size_t c, int n, std::size_t /*elem*/) {
  const std::size_t per = c / static_cast<std::size_t>(n);
  return {per * n, per * n, per, false, false};
}

// nccl-tests rounds gather's and scatter's per-rank share down to whole 16-byte blocks
// (all_gather's and reduce_scatter's it does not).
std::size_t share_in_16_byte_blocks(std::size_t c, int n, std::size_t elem) {
  const std::size_t per = c / static_cast<std::size_t>(n);
  const std::size_t unit = elem < 16 ? 16 / elem : 1;
  return per / unit * unit;
}
CollectiveCounts gather_counts(std::size_t c, int n, std::size_t elem) {
  const std::size_t per = share_in_16_byte_blocks(c, n, elem);
  return {.send = per, .recv = per * n, .param = per, .send_inside_recv = true};
}
CollectiveCounts scatter_counts(std::size_t c, int n, std::size_t elem) {
  const std::size_t per = share_in_16_byte_blocks(c, n, elem);
  return {.send = per * n, .recv = per, .param = per, .recv_inside_send = true};
}

// Point-to-point patterns are grouped sends and receives, as nccl-tests does, so that they
// run on every NCCL version (ncclAlltoAll only exists in recent ones).
void launch_alltoall(Collectives& c, const CollectiveCall& call) {
  const std::size_t bytes = call.count * dtype_info(call.dtype).size;
  c.group_start();
  for (int peer = 0; peer < call.nranks; ++peer) {
    CollectiveCall p = call;
    p.send = static_cast<const char*>(call.send) + bytes * peer;
    p.recv = static_cast<char*>(call.recv) + bytes * peer;
    c.send(p, peer);
    c.recv(p, peer);
  }
  c.group_end();
}

// Ring pattern: rank r sends to r+1 and receives from r-1.
void launch_sendrecv(Collectives& c, const CollectiveCall& call) {
  c.group_start();
  c.send(call, (call.rank + 1) % call.nranks);
  c.recv(call, (call.rank - 1 + call.nranks) % call.nranks);
  c.group_end();
}

// Gather and scatter, like alltoall, are grouped sends and receives (nccl-tests built against
// NCCL >= 2.28 calls ncclGather/ncclScatter instead).
// Every rank sends its block to the root, which receives rank r's block at r * block.
void launch_gather(Collectives& c, const CollectiveCall& call) {
  const std::size_t bytes = call.count * dtype_info(call.dtype).size;
  c.group_start();
  c.send(call, call.root);
  if (call.rank == call.root) {
    for (int peer = 0; peer < call.nranks; ++peer) {
      CollectiveCall from_peer = call;
      from_peer.recv = static_cast<char*>(call.recv) + bytes * peer;
      c.recv(from_peer, peer);
    }
  }
  c.group_end();
}

// The root sends its block r to rank r; every rank receives one block from the root.
void launch_scatter(Collectives& c, const CollectiveCall& call) {
  const std::size_t bytes = call.count * dtype_info(call.dtype).size;
  c.group_start();
  if (call.rank == call.root) {
    for (int peer = 0; peer < call.nranks; ++peer) {
      CollectiveCall to_peer = call;
      to_peer.send = static_cast<const char*>(call.send) + bytes * peer;
      c.send(to_peer, peer);
    }
  }
  c.recv(call, call.root);
  c.group_end();
}

using VS = VerifySource;

constexpr std::array<std::string_view, 2> kRingTree{"Ring", "Tree"};
constexpr std::array<std::string_view, 1> kRing{"Ring"};

const std::array<CollectiveSpec, 9> kCollectives{{
    {.name = "all_reduce",
     .reduces = true,
     .in_place_supported = true,
     .bus_factor = factor_all_reduce,
     .counts = same_counts,
     .verify = {.source = VS::reduce_all_ranks},
     .launch = [](Collectives& c, const CollectiveCall& a) { c.all_reduce(a); },
     .nccl_log_name = "AllReduce",
     .tuner_type = "allreduce",
     .single_node_algos = kRingTree},
    {.name = "all_gather",
     .in_place_supported = true,
     .bus_factor = factor_gather_like,
     .counts = all_gather_counts,
     .verify = {.source = VS::block_rank, .index_mod_block = true},
     .launch = [](Collectives& c, const CollectiveCall& a) { c.all_gather(a); },
     .nccl_log_name = "AllGather",
     .tuner_type = "allgather",
     .single_node_algos = kRing},
    {.name = "reduce_scatter",
     .reduces = true,
     .in_place_supported = true,
     .bus_factor = factor_gather_like,
     .counts = reduce_scatter_counts,
     .verify = {.source = VS::reduce_all_ranks, .offset_by_rank_block = true},
     .launch = [](Collectives& c, const CollectiveCall& a) { c.reduce_scatter(a); },
     .nccl_log_name = "ReduceScatter",
     .tuner_type = "reducescatter",
     .single_node_algos = kRing},
    {.name = "broadcast",
     .rooted = true,
     .in_place_supported = true,
     .bus_factor = factor_one,
     .counts = same_counts,
     .verify = {.source = VS::root_rank},
     .launch = [](Collectives& c, const CollectiveCall& a) { c.broadcast(a); },
     .nccl_log_name = "Broadcast",
     .tuner_type = "broadcast",
     .single_node_algos = kRing},
    {.name = "reduce",
     .reduces = true,
     .rooted = true,
     .in_place_supported = true,
     .bus_factor = factor_one,
     .counts = same_counts,
     .verify = {.source = VS::reduce_all_ranks, .only_root_checks = true},
     .launch = [](Collectives& c, const CollectiveCall& a) { c.reduce(a); },
     .nccl_log_name = "Reduce",
     .tuner_type = "reduce",
     .single_node_algos = kRing},
    {.name = "alltoall",
     .bus_factor = factor_gather_like,
     .counts = alltoall_counts,
     .verify = {.source = VS::block_rank, .offset_by_rank_block = true, .index_mod_block = true},
     .launch = launch_alltoall,
     .nccl_log_name = "AlltoAll"},
    {.name = "sendrecv",
     .bus_factor = factor_one,
     .counts = same_counts,
     .verify = {.source = VS::previous_rank},
     .launch = launch_sendrecv,
     .nccl_log_name = "SendRecv"},
    {.name = "gather",
     .rooted = true,
     .in_place_supported = true,
     .bus_factor = factor_gather_like,
     .counts = gather_counts,
     .verify = {.source = VS::block_rank, .index_mod_block = true, .only_root_checks = true},
     .launch = launch_gather,
     .nccl_log_name = "Gather"},
    {.name = "scatter",
     .rooted = true,
     .in_place_supported = true,
     .bus_factor = factor_gather_like,
     .counts = scatter_counts,
     .verify = {.source = VS::root_rank, .offset_by_rank_block = true},
     .launch = launch_scatter,
     .nccl_log_name = "Scatter"},
}};

}  // namespace

std::span<const CollectiveSpec> all_collectives() { return kCollectives; }

const CollectiveSpec* find_collective(std::string_view name) {
  for (const auto& spec : kCollectives)
    if (spec.name == name) return &spec;
  return nullptr;
}

const CollectiveSpec& collective(std::string_view name) {
  if (const auto* spec = find_collective(name)) return *spec;
  std::vector<std::string_view> names;
  names.reserve(kCollectives.size());
  for (const auto& spec : kCollectives) names.push_back(spec.name);
  FB_USAGE_ERROR(
      fmt::format("unknown collective '{}': expected one of {} (or 'all')", name, fmt::join(names, ", ")));
}

}  // namespace fb
