#pragma once
// The one checked conversion for numbers that come from users and files: the whole text must be
// the number, and overflow, NaN, infinity, a sign where none is allowed and a fraction where a
// whole number is needed are refused. Each throws Error(usage) naming `what`, which callers
// write as the flag or "file:line" the text came from.
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace fb {

// A whole number in [lo, hi] written in decimal ("-3", "42"); no spaces, no '+', no fraction.
std::int64_t parse_whole(std::string_view text, std::string_view what,
                         std::int64_t lo = std::numeric_limits<std::int64_t>::min(),
                         std::int64_t hi = std::numeric_limits<std::int64_t>::max());

// parse_whole narrowed to int: [lo, hi] must lie inside int's range.
int parse_int_in(std::string_view text, std::string_view what, int lo = std::numeric_limits<int>::min(),
                 int hi = std::numeric_limits<int>::max());

// A finite real number ("1.5", "2", "1e3"); NaN and infinity (and overflow to them) are refused.
double parse_finite(std::string_view text, std::string_view what);

// The same checks without throwing, for readers that skip what they cannot read.
std::optional<std::int64_t> try_parse_whole(std::string_view text, int base = 10);
std::optional<double> try_parse_finite(std::string_view text);
// An unsigned whole number, all 64 bits (sysfs registers, NVML masks): decimal, or hexadecimal
// with or without "0x" when `base` is 16; no sign, no space.
std::optional<std::uint64_t> try_parse_unsigned(std::string_view text, int base = 10);

// A finite double converted to an integer type only when it is whole and in range; nullopt
// otherwise (a double cast to an integer it does not fit is undefined behaviour).
std::optional<std::int64_t> whole_from_double(double v);

}  // namespace fb
