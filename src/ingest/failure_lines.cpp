#include "ingest/failure_lines.hpp"

#include <array>
#include <string_view>

namespace fb {
namespace {

// Searched anywhere in the line (a host name or a launcher's tag comes first).
constexpr std::array<std::string_view, 9> kPrimary{"Test NCCL failure ",
                                                   "Test CUDA failure ",
                                                   "Test HIP failure ",
                                                   "Segmentation fault",
                                                   "*** Process received signal ***",
                                                   "exited on signal ",
                                                   "Aborted (core dumped)",
                                                   "DistBackendError",
                                                   "NCCL error in: "};
constexpr std::array<std::string_view, 4> kTrail{": Test failure ", "terminated normally, but ",
                                                 "detected that one or more processes exited",
                                                 "*** End of error message ***"};

std::string_view trimmed(const std::string& text) {
  std::string_view s = text;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

}  // namespace

bool is_collective_test_failure(const std::string& text) {
  const auto s = trimmed(text);
  // The oldest nccl-tests print "NCCL failure all_reduce.cu:95 'unhandled cuda error'" at the start.
  if (s.starts_with("NCCL failure ") || s.starts_with("CUDA failure "))
    return s.find(".cu:") != std::string_view::npos;
  for (const auto p : {std::string_view("Test NCCL failure "), std::string_view("Test CUDA failure "),
                       std::string_view("Test HIP failure ")})
    if (s.find(p) != std::string_view::npos) return true;
  return false;
}

FailureLine failure_line_kind(const std::string& text) {
  const auto s = trimmed(text);
  if (s.starts_with('#'))
    return FailureLine::none;  // the tool's own comments ("# Errors with asterisks ...")
  for (const auto p : kTrail)
    if (s.find(p) != std::string_view::npos) return FailureLine::trail;
  if (is_collective_test_failure(text)) return FailureLine::primary;
  for (const auto p : kPrimary)
    if (s.find(p) != std::string_view::npos) return FailureLine::primary;
  return FailureLine::none;
}

}  // namespace fb
