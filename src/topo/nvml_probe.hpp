#pragma once
// NVML loaded at run time (libnvidia-ml.so.1). Works, and says why not, where NVML is absent.
#include <optional>
#include <string>

#include "topo/nvml_readout.hpp"

namespace fb {

// nullopt with `why` set when NVML cannot be loaded or initialised.
std::optional<NvmlReadout> read_nvml(std::string& why);

}  // namespace fb
