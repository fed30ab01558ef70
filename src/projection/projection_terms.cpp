#include "projection/projection_terms.hpp"

#include <fmt/format.h>

#include "projection/tp_projection.hpp"

namespace fb {

std::vector<ProjectionTerm> projection_terms(const ProjectionRequest& q) {
  return {
      {"layer", "megatron_tp",
       "column-parallel QKV and gate/up, row-parallel attention output and down; two all_reduces per layer"},
      {"overlap", q.overlap ? "full" : "none",
       q.overlap ? "layer time = max(compute, communication)" : "layer time = compute + communication"},
      {"gemm_time", q.gemm_us.empty() ? "roofline" : "measured",
       q.gemm_us.empty() ? "each GEMM takes the longer of FLOPs / GEMM rate and (weights + activations) "
                           "bytes / HBM bandwidth"
                         : "each GEMM as timed alone at its shape on GPU 0 (cuBLAS, bf16, CUDA graph)"},
      {"rates", q.rates.source,
       fmt::format("{:.1f} TFLOP/s bf16 GEMM, {:.0f} GB/s HBM", q.rates.gemm_tflops, q.rates.hbm_gbps)},
      {"allreduce_curve", "log-log interpolation",
       "between measured sizes of the same GPU count; never extrapolated"},
      {"other_gpu_counts", q.assume ? "same busbw" : "not assumed",
       q.assume ? "a TP without its own curve scales the largest measured curve by 2(n-1)/n"
                : "every TP>1 needs an all_reduce measured on that many GPUs"},
      {"p99", "every layer", "a pass's p99 takes the p99 all_reduce in every layer: an upper bound"},
      {"attention_kernels", "left out", "softmax(QK^T)V's own time; the GEMMs around it are counted"},
      {"kv_cache_reads", "left out", "decode reads only the weights; the KV cache adds with context length"},
      {"elementwise_ops", "left out", "norms, rotary embedding, activation, residual adds"},
      {"pipeline_bubbles", "left out", "one stage: no pipeline parallelism"},
      {"embedding_and_head", "left out", "decoder layers only"},
      {"pays_share", fmt::format("{:g}", q.pays_share),
       "a larger TP pays while it gains at least this share of the ideal speedup step"},
  };
}

}  // namespace fb
