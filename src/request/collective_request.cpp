#include "request/collective_request.hpp"

#include <fmt/format.h>

#include <algorithm>

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
    // A factor step past hi ends the sweep before the cast (a double past 2^64 does not convert);
    // one that does not reach the next byte at a small size advances by one byte.
    const double scaled = static_cast<double>(s) * factor;
    if (step == 0 && !(scaled <= static_cast<double>(hi) && scaled < 18446744073709551616.0)) break;
    const auto next = step ? s + step : std::max(s + 1, static_cast<std::uint64_t>(scaled));
    if (next <= s) break;  // overflow
    s = next;
  }
  return out;
}

}  // namespace fb
