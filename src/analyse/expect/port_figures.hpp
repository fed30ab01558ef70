#pragma once
// What NCCL reaches over one IB or RoCE port between hosts: the busbw a ring gets per port, by the
// port's link rate, from published measurements (docs/verdicts.md, "Across hosts", lists them with
// their links). A rate no source measured is scaled from the 400 Gb/s figure and said to be a
// rule of thumb; a port staged through host memory (no GPUDirect RDMA, or no GPU under its PCIe
// switch) keeps two thirds of it.
#include <string_view>

namespace fb {

struct PortFigure {
  double gbps = 0;  // busbw a ring reaches per port, GB/s (0: the rate is unknown)
  std::string_view
      cite;  // where it comes from, short ("NVIDIA, nccl-tests #290"); docs/verdicts.md has the links
  bool rule_of_thumb = false;
};

// The figure of a port at `rate_gbps` Gb/s with GPUDirect RDMA beside a GPU; gbps 0 when the rate is 0.
PortFigure ring_port_figure(double rate_gbps);

// The share of that figure a port keeps when its data is staged through host memory: NVIDIA's 16 of
// 24 GB/s for a 200 Gb/s NIC on the CPU (https://github.com/NVIDIA/nccl/issues/412), a rule of thumb
// for other rates and for no GPUDirect RDMA.
inline constexpr double kStagedShare = 16.0 / 24.0;
inline constexpr std::string_view kStagedCite =
    "staged: two thirds, NVIDIA's 16 of 24 GB/s (nccl #412), a rule of thumb";

// alltoall across hosts: NVIDIA's model, each GPU's remote share over its own NIC.
inline constexpr std::string_view kAlltoallCite =
    "NVIDIA's model of alltoall across nodes (nccl-tests #130, #267) with the ring's per-port figures, a "
    "rule of "
    "thumb";

// NVLSTree on 2 hosts of 8 x H100 over 8 x 400 Gb/s ports each: the one configuration with
// published figures (430-470 GB/s).
inline constexpr double kNvlsTreeTwoHosts = 440;
inline constexpr std::string_view kNvlsTreeCite =
    "2 hosts of 8 x H100 over 8 x 400G: 470 GB/s (nccl-tests #309), 440 at 8 GiB (coreweave/nccl-tests #92): "
    "the "
    "lower reading";

}  // namespace fb
