#include "core/parse_number.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace fb {

std::optional<std::int64_t> try_parse_whole(std::string_view text, int base) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> try_parse_unsigned(std::string_view text, int base) {
  if (base == 16 && (text.starts_with("0x") || text.starts_with("0X"))) text.remove_prefix(2);
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<double> try_parse_finite(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<std::int64_t> whole_from_double(double v) {
  // 2^63 is exact as a double; every double below it in magnitude fits an int64.
  constexpr double kLimit = 9223372036854775808.0;
  if (!std::isfinite(v) || v >= kLimit || v < -kLimit || std::floor(v) != v) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

std::int64_t parse_whole(std::string_view text, std::string_view what, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  const bool out_of_range = ec == std::errc::result_out_of_range && ptr == end;
  if (!out_of_range && (text.empty() || ec != std::errc() || ptr != end))
    FB_USAGE_ERROR(fmt::format("{} '{}' is not a whole number", what, text));
  if (out_of_range || v < lo || v > hi)
    FB_USAGE_ERROR(
        fmt::format("{} '{}' is out of range: expected a whole number in [{}, {}]", what, text, lo, hi));
  return v;
}

int parse_int_in(std::string_view text, std::string_view what, int lo, int hi) {
  return static_cast<int>(parse_whole(text, what, lo, hi));
}

double parse_finite(std::string_view text, std::string_view what) {
  const auto v = try_parse_finite(text);
  if (!v) FB_USAGE_ERROR(fmt::format("{} '{}' is not a finite number", what, text));
  return *v;
}

}  // namespace fb
