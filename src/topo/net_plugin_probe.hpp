#pragma once
// Which NCCL NET plugin library NCCL would load on this host (a host section's `net_plugin`,
// model/result.hpp), found the way NCCL looks for it (NCCL 2.28's src/plugin/net.cc and
// plugin_open.cc):
//   NCCL_NET_PLUGIN unset          libnccl-net.so
//   NCCL_NET_PLUGIN=none (any case), or set empty   no external plugin
//   NCCL_NET_PLUGIN=a,b            each name of the list in turn: the name as given (a path or a library
//                                  file name), then, unless it holds a '/' or is a "lib*.so" name,
//                                  libnccl-net-<name>.so
// RCCL looks for the same names starting librccl-net. Each candidate is opened with dlopen
// (RTLD_LAZY | RTLD_LOCAL: the plugin's symbols are not resolved, nor its functions called) and
// closed again; the dynamic loader's search path is the process's, as it is NCCL's.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fb {

inline constexpr std::string_view kNcclNetPluginPrefix = "libnccl-net";
inline constexpr std::string_view kRcclNetPluginPrefix = "librccl-net";

// The prefix of the plugin the collective library named `library` ("NCCL", "RCCL": CommLibrary's
// name) looks for: RCCL's for "RCCL", NCCL's otherwise.
std::string_view net_plugin_prefix(std::string_view library);

// The library names NCCL tries, in its order, for the NCCL_NET_PLUGIN of `env`; empty when it loads
// none. `prefix` is kNcclNetPluginPrefix or kRcclNetPluginPrefix (or a path ending in such a name).
std::vector<std::string> net_plugin_candidates(const std::map<std::string, std::string>& env,
                                               std::string_view prefix = kNcclNetPluginPrefix);

// The first candidate that opens: its file as the loader found it (dlinfo), or the name when the
// loader does not say; "" when none opens.
std::string find_net_plugin(const std::map<std::string, std::string>& env,
                            std::string_view prefix = kNcclNetPluginPrefix);

}  // namespace fb
