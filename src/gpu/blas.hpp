#pragma once
// bf16 GEMMs through the vendor BLAS, loaded at run time (cuBLAS with dlopen: fabricbench
// still runs where none is installed, and only `project` needs it). Used by the tensor-parallel
// projection to time a layer's GEMMs at their real shapes.
#include <memory>

#include "gpu/runtime.hpp"

namespace fb::gpu {

struct BlasApi;

class Blas {
 public:
  // A handle on the current device, issuing on `stream`, with its own workspace (so that its
  // GEMMs can be captured in a CUDA graph). Throws Error(environment) when no cuBLAS loads.
  explicit Blas(const Stream& stream);
  ~Blas();
  Blas(const Blas&) = delete;
  Blas& operator=(const Blas&) = delete;

  // C[m x n] = A[m x k] B[k x n], row-major, bf16 in and out, fp32 accumulation.
  void gemm_bf16(int m, int n, int k, const void* a, const void* b, void* c);

 private:
  const BlasApi* api_ = nullptr;
  void* handle_ = nullptr;
  DeviceBuffer workspace_;
};

}  // namespace fb::gpu
