#pragma once
// A GPU's model key, the name the expectation rows are keyed by: the first word of the GPU's name
// that holds a digit, upper-cased ("NVIDIA H100 80GB HBM3" -> "H100", "AMD Instinct MI300X" ->
// "MI300X", "NVIDIA A100-SXM4-80GB" -> "A100"), with " PCIe" or " NVL" after it for the PCIe
// cards of a chip, whose figures are not the SXM parts'. Matched exactly, never as a substring:
// "NVIDIA GH200 144G HBM3e" is "GH200", not an H200.
#include <string>

namespace fb {

std::string gpu_model_key(const std::string& gpu_name);

}  // namespace fb
