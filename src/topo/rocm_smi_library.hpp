#pragma once
// AMD GPU links from the ROCm SMI library (librocm_smi64, loaded with dlopen): link type, hops,
// weight, xGMI min/max bandwidth (the link count follows from them), P2P access, PCIe gen and
// width, NUMA node. `rocm-smi --showtopo` text (amd_smi_probe) is the fallback.
#include <optional>
#include <string>

#include "topo/rocm_smi_api.hpp"
#include "topo/smi_text.hpp"

namespace fb {

// Reads every device through `api` (rsmi_init already called). Throws Error(environment) when
// the device count cannot be read; a pair or device figure that cannot be read stays unknown.
RocmSmiTopo read_rocm_smi_api(const rsmi::Api& api);

// Loads `library` ("" tries librocm_smi64.so.1, librocm_smi64.so and /opt/rocm/lib's copy),
// initialises it and reads it; nullopt with `why` set when any of that fails.
std::optional<RocmSmiTopo> read_rocm_smi_library(const std::string& library, std::string& why);

// "0000:c1:00.0" from ROCm SMI's BDFID (domain in bits 63-32, bus 15-8, device 7-3, function 2-0).
std::string bdfid_to_bus_id(std::uint64_t bdfid);

}  // namespace fb
