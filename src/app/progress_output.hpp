#pragma once
// --progress console|json: how the engine's events reach stderr (app/event_renderers.hpp).
// Every rank of a job honours it, and the ranks other than 0 never parse the command line, so
// the value is read from the raw arguments; CLI11 declares it for --help and checks it.
#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/enum_names.hpp"
#include "core/events.hpp"

namespace fb {

enum class ProgressFormat { console, json };

template <>
struct EnumNames<ProgressFormat> {
  static constexpr std::string_view what = "--progress format";
  static constexpr std::array<EnumName<ProgressFormat>, 2> table{
      {{ProgressFormat::console, "console"}, {ProgressFormat::json, "json"}}};
};

// The command line's --progress (console when absent). Throws Error(usage) for another value.
ProgressFormat progress_format_from_args(const std::vector<std::string>& args);

// Declares --progress on `app`, its value taken by progress_format_from_args.
void add_progress_flag(CLI::App& app);

// The sink that writes `format` to `out`.
std::unique_ptr<EventSink> make_event_renderer(ProgressFormat format, std::FILE* out);

}  // namespace fb
