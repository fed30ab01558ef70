#include <cublas_v2.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include <string>

#include "core/error.hpp"
#include "gpu/blas.hpp"
#include "gpu/cuda_check.hpp"

namespace fb::gpu {

// Signatures from the real header: a change is a compile error, not a crash.
struct BlasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSetWorkspace_v2) set_workspace = nullptr;
  // The C entry point (the header also has a C++ overload taking cudaDataType as compute type).
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                            const void*, cudaDataType, int, const void*, cudaDataType, int, const void*,
                            void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
};

namespace {

constexpr std::size_t kWorkspaceBytes = 32u << 20;

template <typename F>
void resolve(void* lib, const char* name, F& fn) {
  fn = reinterpret_cast<F>(::dlsym(lib, name));  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
  if (fn == nullptr)
    throw Error(ExitCode::environment, fmt::format("cuBLAS: the loaded library has no {}", name));
}

BlasApi load_api() {
  void* lib = nullptr;
  std::string why;
  for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
    lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);  // kept open for the process's life
    if (lib != nullptr) break;
    const char* err = ::dlerror();
    why = err != nullptr ? err : name;
  }
  if (lib == nullptr)
    throw Error(ExitCode::environment, fmt::format("cuBLAS not found ({}): project measures GEMMs with it; "
                                                   "give --gemm-tflops and --hbm-gbps instead",
                                                   why));
  BlasApi api;
  resolve(lib, "cublasCreate_v2", api.create);
  resolve(lib, "cublasDestroy_v2", api.destroy);
  resolve(lib, "cublasSetStream_v2", api.set_stream);
  resolve(lib, "cublasSetWorkspace_v2", api.set_workspace);
  resolve(lib, "cublasGemmEx", api.gemm_ex);
  return api;
}

const BlasApi& api() {
  static const BlasApi loaded = load_api();
  return loaded;
}

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(ExitCode::run_failed,
                fmt::format("{} failed: cuBLAS status {}", call, static_cast<int>(status)));
}

}  // namespace

Blas::Blas(const Stream& stream) : api_(&api()), workspace_(kWorkspaceBytes) {
  cublasHandle_t h = nullptr;
  check(api_->create(&h), "cublasCreate");
  handle_ = h;
  check(api_->set_stream(h, as_stream(stream)), "cublasSetStream");
  check(api_->set_workspace(h, workspace_.data(), workspace_.size()), "cublasSetWorkspace");
}

Blas::~Blas() {
  if (handle_ != nullptr) api_->destroy(static_cast<cublasHandle_t>(handle_));
}

void Blas::gemm_bf16(int m, int n, int k, const void* a, const void* b, void* c) {
  const float alpha = 1.0F;
  const float beta = 0.0F;
  // Row-major C = A B is column-major C^T = B^T A^T: B first, with n as the leading size.
  check(api_->gemm_ex(static_cast<cublasHandle_t>(handle_), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b,
                      CUDA_R_16BF, n, a, CUDA_R_16BF, k, &beta, c, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

}  // namespace fb::gpu
