#pragma once
// The two forms the engine's events (core/events.hpp) take on stderr: the console's lines, the
// words users have always read, and JSON lines for scripts (--progress json; docs/cli.md).
#include <cstdio>
#include <string>

#include "core/events.hpp"

namespace fb {

// "fabricbench: [rank R: ][warning: |note: ]TEXT"; errors as every error is said (core/error.hpp).
std::string console_line(const Event& event);

class ConsoleEvents final : public EventSink {
 public:
  explicit ConsoleEvents(std::FILE* out) : out_(out) {}
  void emit(const Event& event) override;

 private:
  std::FILE* out_;
};

// One JSON object per line (core/events.hpp: event_json_line), flushed as it is written.
class JsonLineEvents final : public EventSink {
 public:
  explicit JsonLineEvents(std::FILE* out) : out_(out) {}
  void emit(const Event& event) override;

 private:
  std::FILE* out_;
};

}  // namespace fb
