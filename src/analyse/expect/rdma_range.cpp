#include "analyse/expect/rdma_range.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analyse/expect/gpu_hardware.hpp"
#include "analyse/expect/network_bound.hpp"
#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/expect/port_figures.hpp"
#include "analyse/scope/gpu_names.hpp"

namespace fb {

std::optional<RdmaRange> rdma_range(const Result& r, const Run& run) {
  const auto* hw = gpu_hardware_of(gpu_name(r, run.gpus));
  if (hw == nullptr || hw->rdma_low_gbps <= 0 || nccl_hosts(r, run) < 2) return std::nullopt;
  std::size_t fewest = 0;  // the run's GPUs on its host with the fewest: a ring's weakest host
  if (result_hosts(r) >= 2)
    for (const auto& h : run_hosts(r, run))
      fewest = fewest == 0 ? h.ranks.size() : std::min(fewest, h.ranks.size());
  else  // the hosts are not named: full hosts of the model (analyse/expect/nvlink_domain.hpp)
    fewest = static_cast<std::size_t>(hw->gpus_per_host);
  if (fewest == 0) return std::nullopt;
  const auto g = static_cast<double>(fewest);
  const auto low = ring_port_figure(hw->rdma_low_gbps);
  const auto high = ring_port_figure(hw->rdma_high_gbps);
  return RdmaRange{
      g * low.gbps, g * high.gbps, g,
      fmt::format(
          "the NICs not described: a datacenter network for {}, {:g}-{:g} Gb/s per GPU ({}), {} GPU{} on "
          "the host with the fewest, each at what a ring reaches per port ({:g} Gb/s: {}; {:g} Gb/s: {})",
          hw->model, hw->rdma_low_gbps, hw->rdma_high_gbps, hw->rdma_source, fewest, fewest == 1 ? "" : "s",
          hw->rdma_low_gbps, low.cite, hw->rdma_high_gbps, high.cite)};
}

}  // namespace fb
