#pragma once
// AMD GPU links from `rocm-smi --showtopo` (run when the tool is on PATH).
#include <optional>
#include <string>

#include "topo/smi_text.hpp"

namespace fb {

// nullopt with `why` set when rocm-smi is absent or its output unreadable.
std::optional<RocmSmiTopo> read_rocm_smi(std::string& why);

}  // namespace fb
