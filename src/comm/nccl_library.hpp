#pragma once
// NCCL (or RCCL) loaded at run time with dlopen. Function types come from the header
// (decltype): nccl.h in the CUDA build, our declarations checked against it in the HIP build
// (comm/nccl_api.hpp), so a signature change is a compile error, and one binary can load any
// build (--nccl-lib) or run where no NCCL exists at all.
#include <memory>
#include <string>

#include "comm/nccl_api.hpp"

namespace fb {

struct NcclApi {
  decltype(&ncclGetVersion) GetVersion = nullptr;
  decltype(&ncclGetUniqueId) GetUniqueId = nullptr;
  decltype(&ncclCommInitRank) CommInitRank = nullptr;
  decltype(&ncclCommDestroy) CommDestroy = nullptr;
  decltype(&ncclCommAbort) CommAbort = nullptr;
  decltype(&ncclCommGetAsyncError) CommGetAsyncError = nullptr;
  decltype(&ncclGetErrorString) GetErrorString = nullptr;
  decltype(&ncclGetLastError) GetLastError = nullptr;
  decltype(&ncclAllReduce) AllReduce = nullptr;
  decltype(&ncclAllGather) AllGather = nullptr;
  decltype(&ncclReduceScatter) ReduceScatter = nullptr;
  decltype(&ncclBroadcast) Broadcast = nullptr;
  decltype(&ncclReduce) Reduce = nullptr;
  decltype(&ncclSend) Send = nullptr;
  decltype(&ncclRecv) Recv = nullptr;
  decltype(&ncclGroupStart) GroupStart = nullptr;
  decltype(&ncclGroupEnd) GroupEnd = nullptr;
  // Optional (NCCL >= 2.19): null when the loaded library lacks them.
  decltype(&ncclMemAlloc) MemAlloc = nullptr;
  decltype(&ncclMemFree) MemFree = nullptr;
};

class NcclLibrary {
 public:
  // `path` empty: the dynamic loader's libnccl.so.2 (librccl.so.1 in the HIP build). Throws
  // Error(environment) with the loader's reason when the library or one of the needed symbols is missing.
  static std::shared_ptr<const NcclLibrary> load(const std::string& path);
  ~NcclLibrary();
  NcclLibrary(const NcclLibrary&) = delete;
  NcclLibrary& operator=(const NcclLibrary&) = delete;

  [[nodiscard]] const NcclApi& api() const { return api_; }
  [[nodiscard]] int version_code() const { return version_code_; }
  [[nodiscard]] std::string version() const;                       // "2.28.3"
  [[nodiscard]] const std::string& path() const { return path_; }  // the file actually loaded
  [[nodiscard]] const std::string& name() const { return name_; }  // "NCCL" or "RCCL"

  // "ncclAllReduce failed: unhandled system error (NCCL: <last error>)"
  [[nodiscard]] std::string describe(ncclResult_t r, const char* call) const;

 private:
  NcclLibrary() = default;
  void* handle_ = nullptr;
  NcclApi api_;
  int version_code_ = 0;
  std::string path_;
  std::string name_ = "NCCL";
};

}  // namespace fb
