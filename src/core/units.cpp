#include "core/units.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <limits>

#include "core/error.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

struct Suffix {
  std::string_view text;
  int shift;
};

constexpr std::array<Suffix, 13> kSuffixes{{{"", 0},
                                            {"b", 0},
                                            {"k", 10},
                                            {"kib", 10},
                                            {"m", 20},
                                            {"mib", 20},
                                            {"g", 30},
                                            {"gib", 30},
                                            {"t", 40},
                                            {"tib", 40},
                                            {"kb", -1},
                                            {"mb", -1},
                                            {"gb", -1}}};

}  // namespace

std::uint64_t parse_size(std::string_view text, std::string_view what) {
  std::uint64_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc::result_out_of_range) FB_USAGE_ERROR(fmt::format("{} '{}' is too large", what, text));
  if (ec != std::errc() || ptr == begin)
    FB_USAGE_ERROR(
        fmt::format("{} '{}' is not a size: expected a whole number of bytes with an "
                    "optional K, M, G or T suffix (powers of 2), e.g. 8, 64K, 1G",
                    what, text));
  const std::string suffix = lower(std::string_view(ptr, static_cast<size_t>(end - ptr)));
  for (const auto& s : kSuffixes) {
    if (s.text != suffix) continue;
    if (s.shift < 0)
      FB_USAGE_ERROR(fmt::format("{} '{}': '{}' is ambiguous; write {} (powers of 2) or give bytes", what,
                                 text, suffix,
                                 std::string(1, static_cast<char>(std::toupper(suffix[0]))) + "iB"));
    if (value > (std::numeric_limits<std::uint64_t>::max() >> s.shift))
      FB_USAGE_ERROR(fmt::format("{} '{}' is too large", what, text));
    value <<= s.shift;
    if (value == 0) FB_USAGE_ERROR(fmt::format("{} '{}' must be at least 1 byte", what, text));
    return value;
  }
  FB_USAGE_ERROR(fmt::format("{} '{}' has an unknown suffix '{}': use K, M, G or T", what, text, suffix));
}

std::string format_bytes(std::uint64_t bytes) {
  constexpr std::array<std::string_view, 5> kNames{"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double scaled = static_cast<double>(bytes);
  while (unit + 1 < static_cast<int>(kNames.size()) && scaled >= 1024.0) {
    scaled /= 1024.0;
    ++unit;
  }
  if (scaled == static_cast<double>(static_cast<std::uint64_t>(scaled)))
    return fmt::format("{} {}", static_cast<std::uint64_t>(scaled), kNames[unit]);
  return fmt::format("{:.1f} {}", scaled, kNames[unit]);
}

std::string with_human_sizes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
    const bool word_start =
        i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '.');
    const bool bytes = j > i && word_start && text.substr(j, 2) == " B" &&
                       (j + 2 == text.size() || !std::isalnum(static_cast<unsigned char>(text[j + 2])));
    if (!bytes || j - i < 4 || j - i > 19) {
      out.append(text.substr(i, std::max<std::size_t>(j - i, 1)));
      i = std::max(j, i + 1);
      continue;
    }
    out += format_bytes(std::stoull(std::string(text.substr(i, j - i))));
    i = j + 2;
  }
  return out;
}

std::string size_argument(std::uint64_t bytes) {
  constexpr std::array<std::string_view, 4> kSuffixes{"T", "G", "M", "K"};
  for (std::size_t i = 0; i < kSuffixes.size(); ++i) {
    const std::uint64_t unit = 1ULL << (10 * (kSuffixes.size() - i));
    if (bytes >= unit && bytes % unit == 0) return fmt::format("{}{}", bytes / unit, kSuffixes[i]);
  }
  return std::to_string(bytes);
}

std::string format_seconds(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  return seconds < 9.95 ? fmt::format("{:.1f} s", seconds) : fmt::format("{:.0f} s", seconds);
}

}  // namespace fb
