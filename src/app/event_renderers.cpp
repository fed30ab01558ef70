#include "app/event_renderers.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace fb {
namespace {

std::string_view kind_word(EventKind kind) {
  switch (kind) {
    case EventKind::warning:
      return "warning: ";
    case EventKind::note:
      return "note: ";
    default:
      return "";
  }
}

}  // namespace

std::string console_line(const Event& event) {
  if (event.kind == EventKind::error || event.kind == EventKind::internal_error)
    return error_line(event.text, event.kind == EventKind::internal_error);
  if (event.kind == EventKind::detail) return event.text;  // a line of a table, as it is
  const std::string who = event.rank ? fmt::format("rank {}: ", *event.rank) : std::string();
  return fmt::format("fabricbench: {}{}{}", who, kind_word(event.kind), event.text);
}

void ConsoleEvents::emit(const Event& event) {
  fmt::print(out_, "{}\n", console_line(event));
  std::fflush(out_);
}

void JsonLineEvents::emit(const Event& event) {
  fmt::print(out_, "{}\n", event_json_line(event));
  std::fflush(out_);
}

}  // namespace fb
