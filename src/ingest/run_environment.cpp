#include "ingest/run_environment.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace fb {

void set_command_environment(Result& r, const CommandFacts& command) {
  if (!r.source) return;
  r.env.insert(command.env.begin(), command.env.end());
  auto& sources = r.source->env_sources;
  sources.insert(sources.end(), command.sources.begin(), command.sources.end());
  for (const auto& line : command.commands) {
    const bool set_there = std::any_of(command.sources.begin(), command.sources.end(),
                                       [&line](const std::string& s) { return s.starts_with(line + ":"); });
    if (!set_there) sources.push_back(line + ": the command line, no NCCL_* setting on it");
  }
  auto& unknown = r.source->unknown;
  unknown.insert(unknown.end(), command.unknown.begin(), command.unknown.end());
}

namespace {
constexpr std::string_view kUnread = "the run's environment (NCCL_* settings): ";
}  // namespace

void add_logged_environment(Result& r, const std::map<std::string, std::string>& logged,
                            const std::string& where) {
  if (!r.source || logged.empty()) return;
  std::erase_if(r.source->unknown, [](const std::string& s) { return s.starts_with(kUnread); });
  for (const auto& [name, value] : logged) {
    const auto it = r.env.find(name);
    if (it != r.env.end() && it->second != value)
      r.source->converted.push_back(fmt::format(
          "{}: the command line sets {}, NCCL's log says it took {} ({})", name, it->second, value, where));
    r.env[name] = value;
    r.source->env_sources.push_back(fmt::format("{}: {} set by environment to {}", where, name, value));
  }
}

void note_unread_environment(Result& r) {
  if (!r.source || !r.source->env_sources.empty()) return;
  r.source->unknown.push_back(
      std::string(kUnread) +
      "no command line or NCCL \"set by environment\" line in the output: unknown, not "
      "none (paste the command, or pass --nccl-log FILE of NCCL_DEBUG=INFO)");
}

}  // namespace fb
