#pragma once
// A job across hosts whose NICs the document does not describe (another tool's output; a NET plugin's
// devices) held against the network a datacenter gives its GPU class (analyse/expect/gpu_hardware.hpp:
// the slowest and fastest reference platform, per GPU): a ring's busbw is bound by the NICs of the
// host with the fewest GPUs of the run, each GPU's share at what a ring reaches per port
// (analyse/expect/port_figures.hpp). The low end is what the run is held against, the high end what
// labels an algorithm above the NICs (docs/verdicts.md, "Across hosts").
#include <optional>
#include <string>

#include "model/result.hpp"

namespace fb {

struct RdmaRange {
  double low = 0;            // a ring's busbw on the slowest reference network, GB/s
  double high = 0;           // on the fastest
  double gpus_per_host = 0;  // the run's GPUs on the host with the fewest
  std::string source;
};

// nullopt where the GPU class has no reference network, or the run is not across hosts.
std::optional<RdmaRange> rdma_range(const Result& r, const Run& run);

}  // namespace fb
