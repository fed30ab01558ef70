#pragma once
// Units used everywhere: sizes in bytes (K/M/G suffixes are powers of 2), bandwidth in
// GB/s = 1e9 bytes per second, time in microseconds.
#include <cstdint>
#include <string>
#include <string_view>

namespace fb {

inline constexpr double kBytesPerGB = 1e9;  // GB/s is decimal, never GiB/s

// Parses "8", "64K", "16M", "1G", "2GiB", "4096B" (case-insensitive suffix, powers of 2).
// Throws a usage error naming `what` on anything else, on zero, or on overflow.
std::uint64_t parse_size(std::string_view text, std::string_view what = "size");

// Exact binary form when it is one ("64 MiB", "1 GiB", "8 B"), else one decimal ("1.5 GiB").
std::string format_bytes(std::uint64_t bytes);

// `text` with every byte count a person reads ("at 1073741824 B") in binary units ("at 1 GiB"):
// whole numbers of 1024 bytes and more followed by " B". For pages and summaries; JSON and CSV keep bytes.
std::string with_human_sizes(std::string_view text);

// The size as a command line takes it back (parse_size): "128K", "4G", or the bytes ("1536").
std::string size_argument(std::uint64_t bytes);

// An estimate of seconds as a progress line says it: one decimal under 10 s ("0.9 s"), whole
// seconds above ("42 s").
std::string format_seconds(double seconds);

// bytes moved in `time_us` microseconds, as GB/s.
inline double gb_per_s(double bytes, double time_us) {
  return time_us > 0 ? bytes / (time_us * 1e-6) / kBytesPerGB : 0.0;
}

}  // namespace fb
