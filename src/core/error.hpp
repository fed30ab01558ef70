#pragma once
// The one exception type of fabricbench: carries the exit code the failure maps to (the
// codes and what each covers: docs/cli.md, "Exit codes") and where it was raised.
#include <stdexcept>
#include <string>
#include <string_view>

namespace fb {

enum class ExitCode : int {
  ok = 0,           // done and healthy
  finding = 1,      // done, with an error-level finding, wrong data or a regression
  usage = 2,        // bad flags or input files; a size larger than the GPU has in all
  environment = 3,  // no GPU, driver or NCCL; not enough free GPU or host memory
  run_failed = 4,   // a worker crashed, failed or timed out; an output file not written
};

// How a hung rank is said, wherever a watcher ends it (launch/supervisor, comm/tcp_session): "did not
// finish within --timeout 30 s"; the verdicts read a hang from these words (analyse: a hang between hosts
// that differ in an NCCL setting is the configuration's doing).
inline constexpr std::string_view kRanPastTimeout = "did not finish within --timeout";

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message, std::string where = {})
      : std::runtime_error(message), code_(code), where_(std::move(where)) {}
  [[nodiscard]] ExitCode code() const noexcept { return code_; }
  // "file:line: expression" of the check that failed; empty for plain user errors.
  [[nodiscard]] const std::string& where() const noexcept { return where_; }

 private:
  ExitCode code_;
  std::string where_;
};

// "fabricbench: error: MESSAGE" (or "internal error"), one line without its newline: control
// characters in the message (a value echoed from a file) are written out (core/text.hpp).
std::string error_line(std::string_view message, bool internal = false);
// Writes error_line to stderr.
void print_error(std::string_view message, bool internal = false);

[[noreturn]] void raise(ExitCode code, const std::string& message, const char* file, int line,
                        const char* expr);

}  // namespace fb

// Throws fb::Error with the exit code and message when `cond` is false.
#define FB_REQUIRE(cond, code, message)                                     \
  do {                                                                      \
    if (!(cond)) ::fb::raise((code), (message), __FILE__, __LINE__, #cond); \
  } while (0)

#define FB_USAGE_ERROR(message) ::fb::raise(::fb::ExitCode::usage, (message), nullptr, 0, nullptr)
