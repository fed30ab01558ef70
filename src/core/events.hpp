#pragma once
// What fabricbench says while it works: a step begins, where a sweep stands, a warning, a note,
// a stop, an error on a rank that has no command line of its own. The engine and the workers
// never print: they hand each Event to the EventSink they were given; app/ renders them (the
// console's lines, or JSON lines for scripts: --progress json) and tests record them.
#include <array>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>

#include "core/enum_names.hpp"

namespace fb {

enum class EventKind {
  stage,           // a step begins
  progress,        // a step of a sweep begins, with where the sweep stands
  warning,         // something the user should look at; the command goes on
  note,            // something worth knowing
  stopped,         // the command was stopped (Ctrl-C); what was measured is kept
  error,           // a failure, said where nothing else will say it
  internal_error,  // a failure that is fabricbench's own bug
  detail,          // one line of what -v or FABRICBENCH_DEBUG asked for (the start-up steps' table)
};

template <>
struct EnumNames<EventKind> {
  static constexpr std::string_view what = "event kind";
  static constexpr std::array<EnumName<EventKind>, 8> table{{{EventKind::stage, "stage"},
                                                             {EventKind::progress, "progress"},
                                                             {EventKind::warning, "warning"},
                                                             {EventKind::note, "note"},
                                                             {EventKind::stopped, "stopped"},
                                                             {EventKind::error, "error"},
                                                             {EventKind::internal_error, "internal_error"},
                                                             {EventKind::detail, "detail"}}};
};

// Where a sweep of whole runs stands as its next run starts.
struct SweepPosition {
  int done = 0;                  // runs finished
  int total = 0;                 // runs planned
  double elapsed_s = 0;          // since the first began
  std::optional<double> left_s;  // about how long the rest takes; unknown until one has finished
};

struct Event {
  EventKind kind = EventKind::note;
  std::string text;                    // the console's words after "fabricbench: " and the kind's own
  std::optional<int> rank;             // the job's rank that said it, where that is not rank 0
  std::optional<SweepPosition> sweep;  // progress events
};

// An event of `kind` saying `text`, from rank 0 and outside a sweep.
inline Event make_event(EventKind kind, std::string text) {
  Event event;
  event.kind = kind;
  event.text = std::move(text);
  return event;
}

class EventSink {
 public:
  EventSink() = default;
  virtual ~EventSink() = default;
  EventSink(const EventSink&) = delete;
  EventSink& operator=(const EventSink&) = delete;
  virtual void emit(const Event& event) = 0;
};

// {"kind", "text", then "rank", "done", "total", "elapsed_s", "left_s" where set}: the workers'
// messages to the launcher and the JSON lines of --progress json (docs/cli.md).
void to_json(nlohmann::json& j, const Event& event);
void from_json(const nlohmann::json& j, Event& event);
// The same as one line of JSON, fields in that order, without the newline; text that is not
// UTF-8 (a value echoed from a file) has its bad bytes replaced.
std::string event_json_line(const Event& event);

}  // namespace fb
