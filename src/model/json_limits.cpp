#include "model/json_limits.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>

#include "core/error.hpp"
#include "core/json_text.hpp"
#include "core/parse_number.hpp"

namespace fb {
using nlohmann::json;
namespace {

struct WholeField {
  std::string_view key;
  double lo;
  double hi;  // inclusive, except for the 64-bit fields: there hi is the first value out
};

constexpr double kInt = 2147483647.0;
constexpr double kGpuId = kMaxGpus - 1;
constexpr double kTwo63 = 9223372036854775808.0;
constexpr double kTwo64 = 18446744073709551616.0;

// Every whole-number member of the result document, the topology and the NVML readout.
constexpr std::array<WholeField, 53> kWholeFields{{
    {"bytes", 0, kTwo64},
    {"count", 0, kTwo64},
    {"memory_bytes", 0, kTwo64},
    {"wrong", -1, kTwo63},
    {"index", -1, kGpuId},
    {"rank", -1, kGpuId},
    {"ranks", -1, kGpuId},  // a host section's ranks (1.3)
    {"root", -1, kGpuId},
    {"gpus", -1, kGpuId},
    {"src", -1, kGpuId},
    {"dst", -1, kGpuId},
    {"a", -1, kGpuId},
    {"b", -1, kGpuId},
    {"numa_node", -1, kGpuId},
    {"version_code", -kInt, kInt},
    {"compute_capability", -kInt, kInt},
    {"iters_per_batch", -kInt, kInt},
    {"channels", -kInt, kInt},
    {"graph_launches", -kInt, kInt},
    {"coll_channels", -kInt, kInt},
    {"p2p_channels", -kInt, kInt},
    {"nvls_channels", -kInt, kInt},
    {"port", -kInt, kInt},
    {"samples", -kInt, kInt},
    {"width", -kInt, kInt},
    {"max_width", -kInt, kInt},
    {"gen", -kInt, kInt},
    {"max_gen", -kInt, kInt},
    {"version", -kInt, kInt},
    {"links", -kInt, kInt},
    {"n", -kInt, kInt},
    // nodes (model/nodes_info.hpp; its pairs' `a` and `b` are host names, which are not numbers)
    {"round", -kInt, kInt},
    {"rounds_planned", -kInt, kInt},
    // projection (model/projection.hpp)
    {"allreduce_bytes", 0, kTwo64},
    {"min_bytes", 0, kTwo64},
    {"max_bytes", 0, kTwo64},
    {"hidden", -kTwo63, kTwo63},
    {"layers", -kTwo63, kTwo63},
    {"heads", -kTwo63, kTwo63},
    {"kv_heads", -kTwo63, kTwo63},
    {"ffn", -kTwo63, kTwo63},
    {"batch", -kTwo63, kTwo63},
    {"prompt", -kTwo63, kTwo63},
    {"decode", -kTwo63, kTwo63},
    {"tokens_per_pass", -kTwo63, kTwo63},
    {"tp", -kInt, kInt},
    {"best_tp", -kInt, kInt},
    {"stops_paying_at_tp", -kInt, kInt},
    {"curve_gpus", -kInt, kInt},
    {"points", -kInt, kInt},
    {"tail_points", -kInt, kInt},
    {"fastest_tp", -kInt, kInt},
    {"placement", -1, kGpuId},
}};

const WholeField* whole_field(std::string_view key) {
  for (const auto& f : kWholeFields)
    if (f.key == key) return &f;
  return nullptr;
}

bool in_range(const json& v, const WholeField& f) {
  const bool wide = f.hi == kTwo64 || f.hi == kTwo63;
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    return wide ? (f.hi == kTwo64 || u < static_cast<std::uint64_t>(INT64_MAX) + 1)
                : static_cast<double>(u) <= f.hi;
  }
  if (v.is_number_integer()) {
    const auto i = v.get<std::int64_t>();
    return static_cast<double>(i) >= f.lo && (wide || static_cast<double>(i) <= f.hi);
  }
  const double d = v.get<double>();
  return std::floor(d) == d && d >= f.lo && (wide ? d < f.hi : d <= f.hi);
}

void check_whole(const json& v, const WholeField& f, const std::string& path) {
  if (!v.is_number() || in_range(v, f)) return;  // other types fail in the conversion, by name
  const std::string hi = f.hi == kTwo64 ? "2^64-1" : f.hi == kTwo63 ? "2^63-1" : fmt::format("{:.0f}", f.hi);
  FB_USAGE_ERROR(
      fmt::format("{}: expected a whole number in [{:.0f}, {}], got {}", path, f.lo, hi, v.dump()));
}

void check_member(const json& v, const WholeField& f, const std::string& path) {
  if (!v.is_array()) return check_whole(v, f, path);
  if (f.key == "gpus" && v.size() > static_cast<std::size_t>(kMaxGpus))
    FB_USAGE_ERROR(fmt::format("{}: {} GPUs, more than the limit of {}", path, v.size(), kMaxGpus));
  for (std::size_t i = 0; i < v.size(); ++i) check_whole(v[i], f, fmt::format("{}[{}]", path, i));
}

void walk(const json& v, const std::string& path, int depth) {
  if (depth > kMaxJsonDepth)
    FB_USAGE_ERROR(fmt::format("{}: nested deeper than {} levels", path, kMaxJsonDepth));
  if (v.is_object()) {
    for (const auto& [key, member] : v.items()) {
      const std::string at = fmt::format("{}.{}", path, key);
      if (const auto* f = whole_field(key)) check_member(member, *f, at);
      walk(member, at, depth + 1);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) walk(v[i], fmt::format("{}[{}]", path, i), depth + 1);
  }
}

}  // namespace

void check_json_limits(const json& doc) { walk(doc, "$", 0); }

nlohmann::json parse_input_json(const std::string& text) {
  std::string why;
  auto j = parse_json_bounded(text, kMaxJsonDepth, why);
  if (!j) {
    if (json_nesting(text, kMaxJsonDepth) > kMaxJsonDepth)
      FB_USAGE_ERROR(fmt::format("$: nested deeper than {} levels", kMaxJsonDepth));
    FB_USAGE_ERROR(fmt::format("not a JSON document: {}", why));
  }
  return std::move(*j);
}

int json_key_number(const std::string& key, const std::string& path, int lo, int hi) {
  const auto v = try_parse_whole(key);
  if (!v || *v < lo || *v > hi)
    FB_USAGE_ERROR(fmt::format("{}: key '{}' is not a whole number in [{}, {}]", path, key, lo, hi));
  return static_cast<int>(*v);
}

}  // namespace fb
