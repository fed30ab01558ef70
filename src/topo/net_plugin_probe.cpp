#include "topo/net_plugin_probe.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <link.h>

#include "core/text.hpp"

namespace fb {
namespace {

// NCCL tries libnccl-net-<name>.so unless the name is a path or a library file name ("lib*.so").
bool is_library_name(std::string_view name) {
  return name.find('/') != std::string_view::npos || (name.starts_with("lib") && name.ends_with(".so"));
}

bool is_none(std::string_view value) { return lower(value) == "none"; }

}  // namespace

std::string_view net_plugin_prefix(std::string_view library) {
  return library == "RCCL" ? kRcclNetPluginPrefix : kNcclNetPluginPrefix;
}

std::vector<std::string> net_plugin_candidates(const std::map<std::string, std::string>& env,
                                               std::string_view prefix) {
  const auto it = env.find("NCCL_NET_PLUGIN");
  if (it == env.end()) return {fmt::format("{}.so", prefix)};
  if (is_none(it->second)) return {};
  std::vector<std::string> out;
  for (const auto& name : split(it->second, ',')) {
    if (name.empty()) continue;  // NCCL's strtok skips empty items
    out.push_back(name);
    if (!is_library_name(name)) out.push_back(fmt::format("{}-{}.so", prefix, name));
  }
  return out;
}

std::string find_net_plugin(const std::map<std::string, std::string>& env, std::string_view prefix) {
  for (const auto& name : net_plugin_candidates(env, prefix)) {
    void* lib = ::dlopen(name.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (lib == nullptr) continue;
    std::string found = name;
    link_map* map = nullptr;
    if (::dlinfo(lib, RTLD_DI_LINKMAP, static_cast<void*>(&map)) == 0 && map != nullptr &&
        map->l_name != nullptr && map->l_name[0] != '\0')
      found = map->l_name;
    ::dlclose(lib);
    return found;
  }
  return "";
}

}  // namespace fb
