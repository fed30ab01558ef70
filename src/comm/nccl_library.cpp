#include "comm/nccl_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <climits>
#include <cstdlib>

#include "comm/nccl_api_table.hpp"
#include "core/error.hpp"
#include "gpu/vendor.hpp"

namespace fb {
namespace {

template <typename Fn>
void bind(void* handle, Fn& fn, const char* symbol, const std::string& path) {
  fn = reinterpret_cast<Fn>(::dlsym(handle, symbol));
  if (fn == nullptr)
    throw Error(ExitCode::environment,
                fmt::format("{} has no symbol {}: too old or not an NCCL library", path, symbol));
}

template <typename Fn>
void bind_optional(void* handle, Fn& fn, const char* symbol) {
  fn = reinterpret_cast<Fn>(::dlsym(handle, symbol));
}

std::string loaded_file(void* symbol, const std::string& fallback) {
  Dl_info info{};
  if (::dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return fallback;
  char resolved[PATH_MAX];
  if (::realpath(info.dli_fname, resolved) != nullptr) return resolved;
  return info.dli_fname;
}

}  // namespace

std::shared_ptr<const NcclLibrary> NcclLibrary::load(const std::string& path) {
  const std::string file = path.empty() ? std::string(gpu::default_collective_library()) : path;
  void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    throw Error(ExitCode::environment,
                fmt::format("cannot load {} ({}): {}. Install {} or name the library with --nccl-lib PATH",
                            gpu::collective_library_name(), file, why ? why : "unknown reason",
                            gpu::build_vendor() == gpu::Vendor::amd ? "RCCL (rccl)" : "NCCL (libnccl2)"));
  }
  std::shared_ptr<NcclLibrary> lib(new NcclLibrary());
  lib->handle_ = handle;
  auto& a = *lib->api_;
  bind(handle, a.GetVersion, "ncclGetVersion", file);
  bind(handle, a.GetUniqueId, "ncclGetUniqueId", file);
  bind(handle, a.CommInitRank, "ncclCommInitRank", file);
  bind(handle, a.CommDestroy, "ncclCommDestroy", file);
  bind(handle, a.CommAbort, "ncclCommAbort", file);
  bind(handle, a.CommGetAsyncError, "ncclCommGetAsyncError", file);
  bind(handle, a.GetErrorString, "ncclGetErrorString", file);
  bind(handle, a.GetLastError, "ncclGetLastError", file);
  bind(handle, a.AllReduce, "ncclAllReduce", file);
  bind(handle, a.AllGather, "ncclAllGather", file);
  bind(handle, a.ReduceScatter, "ncclReduceScatter", file);
  bind(handle, a.Broadcast, "ncclBroadcast", file);
  bind(handle, a.Reduce, "ncclReduce", file);
  bind(handle, a.Send, "ncclSend", file);
  bind(handle, a.Recv, "ncclRecv", file);
  bind(handle, a.GroupStart, "ncclGroupStart", file);
  bind(handle, a.GroupEnd, "ncclGroupEnd", file);
  bind_optional(handle, a.MemAlloc, "ncclMemAlloc");
  bind_optional(handle, a.MemFree, "ncclMemFree");
  if (a.MemAlloc == nullptr || a.MemFree == nullptr) a.MemAlloc = nullptr;  // both or neither
  if (a.GetVersion(&lib->version_code_) != ncclSuccess)
    throw Error(ExitCode::environment, fmt::format("{}: ncclGetVersion failed", file));
  lib->path_ = loaded_file(reinterpret_cast<void*>(a.GetVersion), file);
  if (::dlsym(handle, "rcclGetVersion") != nullptr || lib->path_.find("rccl") != std::string::npos)
    lib->name_ = "RCCL";
  return lib;
}

NcclLibrary::NcclLibrary() : api_(std::make_unique<NcclApi>()) {}

NcclLibrary::~NcclLibrary() {
  // Deliberately not dlclose'd: NCCL keeps threads and atexit handlers that outlive us.
}

std::string NcclLibrary::version() const {
  // Codes are major*10000 + minor*100 + patch since 2.9; major*1000 + minor*100 + patch before.
  const int v = version_code_;
  if (v >= 20900) return fmt::format("{}.{}.{}", v / 10000, v % 10000 / 100, v % 100);
  return fmt::format("{}.{}.{}", v / 1000, v % 1000 / 100, v % 100);
}

std::string NcclLibrary::describe(int r, const char* call) const {
  const char* last = api_->GetLastError ? api_->GetLastError(nullptr) : nullptr;
  return fmt::format("{} failed: {}{}", call, api_->GetErrorString(static_cast<ncclResult_t>(r)),
                     (last && *last) ? fmt::format(" ({}: {})", name_, last) : std::string());
}

}  // namespace fb
