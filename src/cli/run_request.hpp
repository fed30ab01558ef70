#pragma once
// The user's strings for a collective measurement turned into a typed request, once: every
// syntax error (names, sizes, lists, sampling) is raised here, before any GPU is touched. What
// needs the machine (GPU ids, data type support, fit) is checked by engine/plans/plan_builder.hpp.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/run_options.hpp"
#include "request/collective_request.hpp"

namespace fb {

// Size list from -b/-e/-f/-i or --sizes (nccl-tests' rules).
std::vector<std::uint64_t> build_sizes(const RunOptions& o);

// "" -> all; "4" -> the first 4; "0,2" / "1-3" -> those ordinals.
GpuSelection parse_gpu_selection(const std::string& text);

// "a,b,c" -> its entries; an empty entry is a usage error naming `what`.
std::vector<std::string> parse_name_list(const std::string& text, const char* what);

RunRequest run_request(const RunOptions& o);

// The longest --timeout/--max-time accepted (a week): beyond it a duration would overflow.
inline constexpr double kMaxSeconds = 604800;

// A usage error naming `what` unless 0 < seconds <= kMaxSeconds (NaN and infinity refused).
void check_timeout(double seconds, const char* what);

}  // namespace fb
