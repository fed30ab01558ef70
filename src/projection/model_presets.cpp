#include "projection/model_presets.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "core/text.hpp"

namespace fb {

// Each preset is the model's own config.json: hidden_size, num_hidden_layers,
// num_attention_heads, num_key_value_heads, intermediate_size.
const std::vector<ModelShape>& model_presets() {
  static const std::vector<ModelShape> presets{
      {"llama-3-8b", "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json", 4096, 32, 32,
       8, 14336, "bf16"},
      {"llama-3-70b", "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json", 8192, 80,
       64, 8, 28672, "bf16"},
      {"llama-3.1-405b", "https://huggingface.co/meta-llama/Llama-3.1-405B/blob/main/config.json", 16384, 126,
       128, 8, 53248, "bf16"},
      {"qwen2.5-72b", "https://huggingface.co/Qwen/Qwen2.5-72B/blob/main/config.json", 8192, 80, 64, 8, 29568,
       "bf16"},
      {"mistral-7b", "https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json", 4096, 32, 32,
       8, 14336, "bf16"},
  };
  return presets;
}

ModelShape model_preset(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& m : model_presets()) {
    if (m.name == lower(name)) return m;
    names.push_back(m.name);
  }
  FB_USAGE_ERROR(
      fmt::format("--model: unknown model '{}' (presets: {}; or give --hidden, --layers, --heads, "
                  "--kv-heads and --ffn)",
                  name, fmt::join(names, ", ")));
}

std::int64_t element_bytes(const std::string& dtype) {
  const std::string d = lower(dtype);
  if (d == "bf16" || d == "bfloat16" || d == "fp16" || d == "half") return 2;
  if (d == "fp32" || d == "float") return 4;
  if (d == "fp8") return 1;
  FB_USAGE_ERROR(fmt::format("--dtype: unknown model dtype '{}' (bf16, fp16, fp32, fp8)", dtype));
}

void check_model_shape(const ModelShape& m) {
  const std::pair<const char*, std::int64_t> fields[] = {{"--hidden", m.hidden},
                                                         {"--layers", m.layers},
                                                         {"--heads", m.heads},
                                                         {"--kv-heads", m.kv_heads},
                                                         {"--ffn", m.ffn}};
  for (const auto& [flag, value] : fields)
    if (value <= 0) FB_USAGE_ERROR(fmt::format("{} must be a positive number (got {})", flag, value));
  if (m.hidden % m.heads != 0)
    FB_USAGE_ERROR(fmt::format("--hidden {} is not a multiple of --heads {}", m.hidden, m.heads));
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0)
    FB_USAGE_ERROR(fmt::format("--heads {} is not a multiple of --kv-heads {}", m.heads, m.kv_heads));
  element_bytes(m.dtype);
}

void check_tp_degree(const ModelShape& m, int tp) {
  if (tp <= 0) FB_USAGE_ERROR(fmt::format("--tp: a degree must be positive (got {})", tp));
  if (m.heads % tp != 0)
    FB_USAGE_ERROR(
        fmt::format("--tp {}: the model's {} attention heads do not divide by {}", tp, m.heads, tp));
  if (m.kv_heads % tp != 0 && tp % m.kv_heads != 0)
    FB_USAGE_ERROR(fmt::format("--tp {}: the model's {} KV heads neither divide by {} nor divide it", tp,
                               m.kv_heads, tp));
  if (m.ffn % tp != 0)
    FB_USAGE_ERROR(fmt::format("--tp {}: the MLP width {} does not divide by {}", tp, m.ffn, tp));
}

}  // namespace fb
