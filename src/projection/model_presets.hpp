#pragma once
// Shapes of common open models, each with its source, and the checks every shape passes.
#include <cstdint>
#include <string>
#include <vector>

#include "model/projection.hpp"

namespace fb {

// The presets, in the order `--model list` prints them.
const std::vector<ModelShape>& model_presets();

// The preset named `name` (case-insensitive); a usage error listing the names otherwise.
ModelShape model_preset(const std::string& name);

// Bytes per element of a model dtype ("bf16", "fp16", "fp32", "fp8"); a usage error otherwise.
std::int64_t element_bytes(const std::string& dtype);

// A usage error for any shape that is zero or negative, or hidden not a multiple of heads.
void check_model_shape(const ModelShape& m);

// A usage error unless `tp` splits the heads, the KV heads (or a multiple of them: each GPU then
// keeps a copy) and the MLP's width evenly, as Megatron's tensor parallelism needs.
void check_tp_degree(const ModelShape& m, int tp);

}  // namespace fb
