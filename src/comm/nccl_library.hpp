#pragma once
// NCCL (or RCCL) loaded at run time with dlopen, so that one binary can load any build
// (--nccl-lib) or run where no NCCL exists at all. The calls themselves (comm/nccl_api_table.hpp)
// are for comm/ and the GPU-side code; this face names no NCCL or runtime type, so the layers above
// compile the same in the CUDA and the HIP build.
#include <memory>
#include <string>

namespace fb {

struct NcclApi;

class NcclLibrary {
 public:
  // `path` empty: the dynamic loader's libnccl.so.2 (librccl.so.1 in the HIP build). Throws
  // Error(environment) with the loader's reason when the library or one of the needed symbols is missing.
  static std::shared_ptr<const NcclLibrary> load(const std::string& path);
  ~NcclLibrary();
  NcclLibrary(const NcclLibrary&) = delete;
  NcclLibrary& operator=(const NcclLibrary&) = delete;

  [[nodiscard]] const NcclApi& api() const { return *api_; }
  [[nodiscard]] int version_code() const { return version_code_; }
  [[nodiscard]] std::string version() const;                       // "2.28.3"
  [[nodiscard]] const std::string& path() const { return path_; }  // the file actually loaded
  [[nodiscard]] const std::string& name() const { return name_; }  // "NCCL" or "RCCL"

  // "ncclAllReduce failed: unhandled system error (NCCL: <last error>)" for the ncclResult_t `r`.
  [[nodiscard]] std::string describe(int r, const char* call) const;

 private:
  NcclLibrary();
  void* handle_ = nullptr;
  std::unique_ptr<NcclApi> api_;
  int version_code_ = 0;
  std::string path_;
  std::string name_ = "NCCL";
};

}  // namespace fb
