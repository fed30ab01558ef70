#include "app/progress_output.hpp"

#include "app/event_renderers.hpp"
#include "comm/launch_env.hpp"

namespace fb {

ProgressFormat progress_format_from_args(const std::vector<std::string>& args) {
  const auto value = option_from_args(args, "--progress");
  return value ? parse_enum<ProgressFormat>(*value) : ProgressFormat::console;
}

void add_progress_flag(CLI::App& app) {
  std::vector<std::string> names;
  names.reserve(EnumNames<ProgressFormat>::table.size());
  for (const auto& row : EnumNames<ProgressFormat>::table) names.emplace_back(row.name);
  app.add_option_function<std::string>(
         "--progress", [](const std::string&) {},
         "console | json: stderr's progress, warnings and stage lines as words, or one JSON object per "
         "line for scripts (default console)")
      ->check(CLI::IsMember(names));
}

std::unique_ptr<EventSink> make_event_renderer(ProgressFormat format, std::FILE* out) {
  if (format == ProgressFormat::json) return std::make_unique<JsonLineEvents>(out);
  return std::make_unique<ConsoleEvents>(out);
}

}  // namespace fb
