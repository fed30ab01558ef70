#include "core/process_clock.hpp"

#include <chrono>

namespace fb {
namespace {

// Set while the program's static objects are built, before main(): the earliest point the
// program itself can see (exec and dynamic loading come before it and are not counted).
const auto process_start = std::chrono::steady_clock::now();

}  // namespace

double ms_since_process_start() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - process_start).count();
}

}  // namespace fb
