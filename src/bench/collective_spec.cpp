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

CollectiveCounts same_counts(std::size_t c, int /*n*/) { return {c, c, c, false, false}; }
CollectiveCounts all_gather_counts(std::size_t c, int n) {
  const std::size_t per = c / static_cast<std::size_t>(n);
  return {per, per * n, per, true, false};
}
CollectiveCounts reduce_scatter_counts(std::size_t c, int n) {
  const std::size_t per = c / static_cast<std::size_t>(n);
  return {per * n, per, per, false, true};
}
CollectiveCounts alltoall_counts(std::size_t c, int n) {
  const std::size_t per = c / static_cast<std::size_t>(n);
  return {per * n, per * n, per, false, false};
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

using VS = VerifySource;

const std::array<CollectiveSpec, 7> kCollectives{{
    {"all_reduce",
     true,
     false,
     true,
     factor_all_reduce,
     same_counts,
     {VS::reduce_all_ranks, false, false, false},
     [](Collectives& c, const CollectiveCall& a) { c.all_reduce(a); }},
    {"all_gather",
     false,
     false,
     true,
     factor_gather_like,
     all_gather_counts,
     {VS::block_rank, false, true, false},
     [](Collectives& c, const CollectiveCall& a) { c.all_gather(a); }},
    {"reduce_scatter",
     true,
     false,
     true,
     factor_gather_like,
     reduce_scatter_counts,
     {VS::reduce_all_ranks, true, false, false},
     [](Collectives& c, const CollectiveCall& a) { c.reduce_scatter(a); }},
    {"broadcast",
     false,
     true,
     true,
     factor_one,
     same_counts,
     {VS::root_rank, false, false, false},
     [](Collectives& c, const CollectiveCall& a) { c.broadcast(a); }},
    {"reduce",
     true,
     true,
     true,
     factor_one,
     same_counts,
     {VS::reduce_all_ranks, false, false, true},
     [](Collectives& c, const CollectiveCall& a) { c.reduce(a); }},
    {"alltoall",
     false,
     false,
     false,
     factor_gather_like,
     alltoall_counts,
     {VS::block_rank, true, true, false},
     launch_alltoall},
    {"sendrecv",
     false,
     false,
     false,
     factor_one,
     same_counts,
     {VS::previous_rank, false, false, false},
     launch_sendrecv},
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
