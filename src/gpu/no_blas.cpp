// The HIP build's Blas: hipBLAS is not loaded yet, so GEMMs cannot be timed here. `project`
// still runs from given rates (--gemm-tflops, --hbm-gbps); what needs the GEMMs says why not.
#include "core/error.hpp"
#include "gpu/blas.hpp"

namespace fb::gpu {

struct BlasApi {};

Blas::Blas(const Stream& /*stream*/) {
  throw Error(ExitCode::environment,
              "timing GEMMs needs the vendor BLAS, and this HIP build does not load hipBLAS yet: give "
              "--gemm-tflops and --hbm-gbps (project), or use the CUDA build (--validate)");
}

Blas::~Blas() = default;

void Blas::gemm_bf16(int /*m*/, int /*n*/, int /*k*/, const void* /*a*/, const void* /*b*/, void* /*c*/) {}

}  // namespace fb::gpu
