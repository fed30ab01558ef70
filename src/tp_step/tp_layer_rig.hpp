#pragma once
// A real tensor-parallel layer on the local GPUs: one cuBLAS handle and stream per GPU and,
// for more than one GPU, NCCL communicators across them, all driven from this thread. Times one
// GEMM alone, one all_reduce alone, or the whole layer (its four GEMMs and two all_reduces in
// order), each captured in CUDA graphs (docs/projection.md, "Validation").
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "comm/nccl_collectives.hpp"
#include "comm/nccl_library.hpp"
#include "gpu/blas.hpp"
#include "projection/tp_layer.hpp"
#include "tp_step/graph_timer.hpp"

namespace fb {

class TpLayerRig {
 public:
  // GPUs 0..gpus-1; `lib` may be null for one GPU (no communication).
  TpLayerRig(std::shared_ptr<const NcclLibrary> lib, int gpus);
  ~TpLayerRig();
  TpLayerRig(const TpLayerRig&) = delete;
  TpLayerRig& operator=(const TpLayerRig&) = delete;

  // One GEMM at its shape on GPU 0, alone.
  GraphTiming gemm(const GemmShape& g);
  // One bf16 sum all_reduce of `bytes` across all the rig's GPUs.
  GraphTiming all_reduce(std::uint64_t bytes);
  // The layer of `m` at TP `tp` (at most the rig's GPUs) for a pass of `tokens` tokens.
  GraphTiming layer(const ModelShape& m, int tp, std::int64_t tokens);
  // An on-GPU copy of `bytes` on GPU 0: HBM bandwidth as bytes read plus written per second.
  double copy_gbps(std::uint64_t bytes);

 private:
  struct Lane;
  std::vector<GpuLane*> lanes(int count);
  void all_reduce_on(const std::vector<void*>& buffers, std::uint64_t bytes);

  std::shared_ptr<const NcclLibrary> lib_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::unique_ptr<Collectives> nccl_;
};

}  // namespace fb
