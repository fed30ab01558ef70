#include "core/error.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "core/text.hpp"

namespace fb {

std::string error_line(std::string_view message, bool internal) {
  return fmt::format("fabricbench: {}: {}", internal ? "internal error" : "error", escape_control(message));
}

void print_error(std::string_view message, bool internal) {
  fmt::print(stderr, "{}\n", error_line(message, internal));
}

void raise(ExitCode code, const std::string& message, const char* file, int line, const char* expr) {
  std::string where;
  if (file != nullptr) where = fmt::format("{}:{}: {}", file, line, expr ? expr : "");
  throw Error(code, message, std::move(where));
}

}  // namespace fb
