#include "bench/request.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/text.hpp"

namespace fb {

std::string GpuSelection::text() const {
  switch (kind) {
    case Kind::first:
      return std::to_string(count);
    case Kind::ids:
      return join_ints(ids);
    case Kind::all:
      break;
  }
  return "";
}

std::vector<std::uint64_t> size_sweep(std::uint64_t lo, std::uint64_t hi, double factor, std::uint64_t step) {
  constexpr std::size_t kMaxSizes = 4096;
  std::vector<std::uint64_t> out;
  for (std::uint64_t s = lo; s <= hi;) {
    out.push_back(s);
    if (out.size() > kMaxSizes)
      FB_USAGE_ERROR(fmt::format("that range gives more than {} sizes; use a larger step", kMaxSizes));
    const auto next = step ? s + step : static_cast<std::uint64_t>(static_cast<double>(s) * factor);
    if (next <= s) break;  // factor too small to advance at this size, or overflow
    s = next;
  }
  return out;
}

}  // namespace fb
