#include "comm/launch_env_vars.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/parse_number.hpp"

namespace fb::launch_vars {

bool has(const EnvLookup& env, std::string_view name) {
  return !name.empty() && env(std::string(name)).has_value();
}

std::optional<std::string> get(const EnvLookup& env, std::string_view name) {
  if (name.empty()) return std::nullopt;
  return env(std::string(name));
}

std::string shown(std::string_view name) {
  if (name == kRendezvousVar) return fmt::format("--rendezvous ({})", name);
  if (name == kNnodesVar) return fmt::format("--nnodes ({})", name);
  if (name == kNprocPerNodeVar) return fmt::format("--nproc-per-node ({})", name);
  return std::string(name);
}

std::string need(const EnvLookup& env, std::string_view name, std::string_view launcher) {
  const auto v = get(env, name);
  if (v && !v->empty()) return *v;
  if (name.starts_with("FABRICBENCH_"))
    FB_USAGE_ERROR(fmt::format("--launcher {}: {} is not given, and no variable of the launcher says it",
                               launcher, shown(name)));
  FB_USAGE_ERROR(
      fmt::format("--launcher {}: the variable {} is not set (the launcher sets it)", launcher, name));
}

int int_var(const EnvLookup& env, std::string_view name, std::string_view launcher, int lo, int hi) {
  return parse_int_in(need(env, name, launcher), shown(name), lo, hi);
}

std::optional<int> int_if_number(const EnvLookup& env, std::string_view name) {
  const auto v = get(env, name);
  if (!v) return std::nullopt;
  const auto n = try_parse_whole(*v);
  if (!n || *n < 1 || *n > kMaxRanks) return std::nullopt;
  return static_cast<int>(*n);
}

std::string_view first_set(const EnvLookup& env, std::span<const std::string_view> names) {
  std::string_view last;
  for (const auto name : names) {
    if (name.empty()) continue;
    if (has(env, name)) return name;
    last = name;
  }
  return last;
}

std::string name_value(const EnvLookup& env, std::string_view name) {
  constexpr std::size_t kLongest = 60;
  auto v = get(env, name).value_or("");
  if (v.size() > kLongest) v = v.substr(0, kLongest) + "...";
  return fmt::format("{}={}", name, v);
}

}  // namespace fb::launch_vars
