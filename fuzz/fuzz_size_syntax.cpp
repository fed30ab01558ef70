// libFuzzer target: the size and list syntax users type (-b/-e/--sizes, --gpus, -f, numbers).
// Bad syntax must be Error(usage); a size list must be increasing and within -b..-e.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cli/run_request.hpp"
#include "core/error.hpp"
#include "core/parse_number.hpp"
#include "core/units.hpp"

namespace {

template <typename F>
void usage_only(F&& f) {
  try {
    f();
  } catch (const fb::Error& e) {
    if (e.code() != fb::ExitCode::usage) __builtin_trap();
  }
}

// "<min> <max> <factor>": the sweep they give.
void sweep(const std::string& text) {
  const auto a = text.find(' ');
  const auto b = a == std::string::npos ? a : text.find(' ', a + 1);
  if (b == std::string::npos) return;
  fb::RunOptions o;
  o.min_bytes = text.substr(0, a);
  o.max_bytes = text.substr(a + 1, b - a - 1);
  const auto f = fb::try_parse_finite(std::string_view(text).substr(b + 1));
  o.step_factor = f ? *f : 2;
  usage_only([&] {
    const auto sizes = fb::build_sizes(o);
    for (std::size_t i = 1; i < sizes.size(); ++i)
      if (sizes[i] <= sizes[i - 1]) __builtin_trap();
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  usage_only([&] { (void)fb::parse_size(text, "size"); });
  usage_only([&] { (void)fb::parse_whole(text, "n"); });
  usage_only([&] { (void)fb::parse_finite(text, "x"); });
  usage_only([&] { (void)fb::parse_gpu_selection(text); });
  sweep(text);
  return 0;
}
