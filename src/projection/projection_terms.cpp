#include "projection/projection_terms.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <set>

#include "core/units.hpp"
#include "projection/tp_projection.hpp"

namespace fb {
namespace {

struct TailCount {
  int measured = 0;
  int not_measured = 0;
  std::uint64_t min_bytes = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_bytes = 0;
  std::set<int> gpus;  // the TPs of the rows without a tail
};

TailCount count_tails(const Projection& p) {
  TailCount c;
  for (const auto& ph : p.phases)
    for (const auto& r : ph.rows) {
      if (r.tp == 1) continue;
      (r.tail == "measured" ? c.measured : c.not_measured) += 1;
      if (r.tail == "measured") continue;
      c.min_bytes = std::min(c.min_bytes, r.allreduce_bytes);
      c.max_bytes = std::max(c.max_bytes, r.allreduce_bytes);
      c.gpus.insert(r.tp);
    }
  return c;
}

// The p99 term: measured tails, or what measuring them takes (docs/metrics.md, "The tail").
ProjectionTerm tail_term(const Projection& p) {
  const TailCount c = count_tails(p);
  const std::string what =
      "a pass's p99 takes the p99 of single all_reduces (docs/metrics.md, \"The tail\") in every layer: an "
      "upper bound; the GEMMs' own tail is not modelled";
  if (c.not_measured == 0) return {"p99", c.measured > 0 ? "single-operation tails" : "no all_reduce", what};
  const std::string needs = fmt::format(
      "the all_reduce sizes of the rows marked not measured have no single-operation tail in the "
      "document; `fabricbench run all_reduce --gpus N -d bfloat16 -b {} -e {} --json FILE` for N = {} "
      "times them with its default tail sampling (without -G: a graph times whole batches)",
      size_argument(c.min_bytes), size_argument(c.max_bytes), fmt::join(c.gpus, ", "));
  return {"p99", c.measured > 0 ? "partly measured" : "not measured", what + "; " + needs};
}

ProjectionTerm other_counts_term(const ProjectionRequest& q, const Projection& p) {
  if (!q.assume)
    return {"other_gpu_counts", "not assumed", "every TP>1 needs an all_reduce measured on that many GPUs"};
  return {"other_gpu_counts", p.bounds.empty() ? "not needed" : "bounded",
          "a TP without its own curve takes the bound of that many GPUs (the ring ceiling of the best subset "
          "on one host; across hosts the network's measured or expected figure, or --net-busbw), never a "
          "larger subset's figure; where another GPU count's curve at equal busbw (2(n-1)/n) is slower than "
          "that bound (latency-bound sizes) it takes that time, marked assumed"};
}

}  // namespace

std::vector<ProjectionTerm> projection_terms(const ProjectionRequest& q, const Projection& p) {
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
      other_counts_term(q, p),
      tail_term(p),
      {"attention_kernels", "left out", "softmax(QK^T)V's own time; the GEMMs around it are counted"},
      {"kv_cache_reads", "left out", "decode reads only the weights; the KV cache adds with context length"},
      {"elementwise_ops", "left out", "norms, rotary embedding, activation, residual adds"},
      {"pipeline_bubbles", "left out", "one stage: no pipeline parallelism"},
      {"embedding_and_head", "left out", "decoder layers only"},
      {"pays_share", fmt::format("{:g}", q.pays_share),
       "a step from TP a to TP b pays when it runs at least 1 + pays_share x (b/a - 1) times faster"},
  };
}

}  // namespace fb
