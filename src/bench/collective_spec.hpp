#pragma once
// What each collective is, as data: one row per collective. The generic driver reads these
// rows; adding a collective means adding one row (DESIGN.md).
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "comm/collectives.hpp"
#include "core/verify_values.hpp"

namespace fb {

// Element counts of one rank's buffers for a point, following nccl-tests' conventions.
struct CollectiveCounts {
  std::size_t send = 0;   // elements in the send buffer
  std::size_t recv = 0;   // elements in the receive buffer
  std::size_t param = 0;  // the `count` passed to NCCL
  // Element offsets of the in-place buffer (nccl-tests' sendInplaceOffset/recvInplaceOffset):
  // in-place all_gather sends from recv + rank*param; reduce_scatter receives into send + rank*param.
  bool send_inside_recv = false;
  bool recv_inside_send = false;
  // Bytes the point is reported as (nccl-tests' "size"): the larger buffer.
  [[nodiscard]] std::size_t reported_elements() const { return send > recv ? send : recv; }
};

using LaunchFn = void (*)(Collectives&, const CollectiveCall&);

struct CollectiveSpec {
  std::string_view name;
  bool reduces = false;             // takes a reduction op
  bool rooted = false;              // takes a root rank
  bool in_place_supported = false;  // nccl-tests runs an in-place variant
  // nccl-tests' bus factor: busbw = algbw * factor(n).
  double (*bus_factor)(int nranks) = nullptr;
  // Per-rank counts for a total element count of `elem_size`-byte elements (rounded down as
  // nccl-tests' GetCollByteCount does; some round to whole 16-byte blocks).
  CollectiveCounts (*counts)(std::size_t total_count, int nranks, std::size_t elem_size) = nullptr;
  VerifyLayout verify;
  LaunchFn launch = nullptr;
  // NCCL's name for the operation in its logs ("AllReduce"): the key of NcclLogSummary::choices.
  std::string_view nccl_log_name{};  // NOLINT(readability-redundant-member-init): below
  // The collective type of NCCL's example tuner plugin ("allreduce"); empty where it has none.
  std::string_view tuner_type{};  // NOLINT(readability-redundant-member-init): below
  // The NCCL_ALGO values NCCL offers for it on one node (CollNet needs a network plugin, PAT one
  // GPU per node, NVLS NVLink multicast); empty where NCCL picks no algorithm (send/recv).
  // The {} keep GCC's -Wmissing-field-initializers quiet for the rows that leave these out.
  std::span<const std::string_view> single_node_algos{};  // NOLINT(readability-redundant-member-init)
};

std::span<const CollectiveSpec> all_collectives();
const CollectiveSpec* find_collective(std::string_view name);
// Throws a usage error listing the valid names.
const CollectiveSpec& collective(std::string_view name);

}  // namespace fb
