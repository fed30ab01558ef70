#pragma once
// NVML loaded at run time (libnvidia-ml.so.1). Works, and says why not, where NVML is absent.
#include <map>
#include <optional>
#include <string>

#include "model/host_facts.hpp"
#include "topo/nvml_readout.hpp"

namespace fb {

// nullopt with `why` set when NVML cannot be loaded or initialised.
std::optional<NvmlReadout> read_nvml(std::string& why);

// NVML's health readings per GPU, by normalized bus id: persistence mode, clock event reasons,
// volatile uncorrected ECC errors, row remapping and page retirement. Only those fields are set;
// a reading the GPU does not support keeps NVML's reason in its note. nullopt with `why` set
// when NVML cannot be loaded or initialised.
std::optional<std::map<std::string, GpuHostFacts>> read_nvml_health(std::string& why);

}  // namespace fb
