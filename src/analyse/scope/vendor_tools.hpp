#pragma once
// The vendor's own tools, as hints name them: a result from an AMD machine points at rocm-smi,
// one from an NVIDIA machine at nvidia-smi. The vendor is read from the document (its topology,
// its collective library, its GPU names), never from the build that analyses it: a report made
// on a laptop of an MI300X run still names rocm-smi.
#include <string_view>

#include "gpu/vendor.hpp"
#include "model/result.hpp"

namespace fb {

struct VendorTools {
  std::string_view clocks;     // clocks, power and throttling
  std::string_view links;      // the GPU fabric's link state and error counters
  std::string_view pcie;       // a GPU's PCIe link, current against maximum
  std::string_view ecc;        // memory error counters
  std::string_view status;     // everything the tool knows about a GPU
  std::string_view processes;  // who else uses the GPUs
  std::string_view lost_gpu;   // where a GPU that fell off the bus leaves its trace
};

const VendorTools& vendor_tools(gpu::Vendor v);

// AMD when the topology's GPUs are AMD's; NVIDIA otherwise (also when it has no GPU).
gpu::Vendor topology_vendor(const Topology& t);
// The topology's answer when the document has one with GPUs; else AMD when RCCL ran or a GPU's
// name is AMD's; else NVIDIA.
gpu::Vendor result_vendor(const Result& r);

}  // namespace fb
