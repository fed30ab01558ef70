#include "core/error.hpp"

#include <fmt/format.h>

namespace fb {

void raise(ExitCode code, const std::string& message, const char* file, int line, const char* expr) {
  std::string where;
  if (file != nullptr) where = fmt::format("{}:{}: {}", file, line, expr ? expr : "");
  throw Error(code, message, std::move(where));
}

}  // namespace fb
