#pragma once
// The tensor-parallel projection as it is written in the result document (`projection`,
// docs/result-schema.md, docs/projection.md): plain data, filled by src/projection/.
#include <cstdint>
#include <string>
#include <vector>

namespace fb {

// The transformer the projection is for: one decoder layer's shapes, repeated `layers` times.
struct ModelShape {
  std::string name;    // "llama-3-70b", or "custom"
  std::string source;  // where the shapes come from (the model's config.json), "" for custom
  std::int64_t hidden = 0;
  std::int64_t layers = 0;
  std::int64_t heads = 0;
  std::int64_t kv_heads = 0;
  std::int64_t ffn = 0;  // the MLP's intermediate size (gated: up and gate both this wide)
  std::string dtype = "bf16";
};

// What is served: `batch` sequences, each a `prompt` of tokens prefilled then `decode` tokens
// generated one step at a time.
struct Workload {
  std::int64_t batch = 1;
  std::int64_t prompt = 2048;
  std::int64_t decode = 128;
};

// One named assumption of the model and the value it took (docs/projection.md lists them).
struct ProjectionTerm {
  std::string name;   // "overlap", "attention_kernels"
  std::string value;  // "none", "left out"
  std::string note;
};

// One tensor-parallel degree of one phase. Times are per GPU and per layer unless the name
// says otherwise; "p99" takes the all_reduce's single-operation p99 (its measured tail) in place of
// its median, and is 0 where no tail was measured (`tail`).
struct ProjectionRow {
  int tp = 1;
  std::uint64_t allreduce_bytes = 0;  // each of the layer's two all_reduces
  double flops_per_gpu = 0;           // the layer's GEMMs, per GPU
  double weight_bytes_per_gpu = 0;    // the layer's weights each GPU reads once per pass
  double compute_us = 0;
  double comm_us = 0;  // both all_reduces
  double comm_p99_us = 0;
  double layer_us = 0;
  double layer_p99_us = 0;
  double pass_ms = 0;  // all layers: a prefill, or one decode step
  double pass_p99_ms = 0;
  double tokens_per_s = 0;  // of one model replica spread over `tp` GPUs
  double speedup = 1;       // over TP=1
  double efficiency = 1;    // speedup / tp
  double comm_share = 0;    // comm_us / layer_us
  int curve_gpus = 0;       // GPUs of the all_reduce curve whose time was used (0: TP=1, or the bound's time)
  bool assumed = false;     // not its own curve: bounded or assumed (--assume)
  // 1.6: where the all_reduce time comes from (docs/projection.md, "Communication"): "measured" (the
  // document's curve of exactly `tp` GPUs), "bounded" (the bandwidth bound of `tp` GPUs: the ring
  // ceiling of the best subset, or the network's figure across hosts), "assumed" (another GPU count's
  // curve at equal busbw, or a figure given on the command line), "none" (TP=1); "" in older documents.
  std::string comm_basis;
  std::string comm_source;  // the same in words: which curve or bound, and its source
  double bound_gbps = 0;    // the busbw bound that held the row (0: none)
  // 1.6: "measured" (the p99 fields come from single-operation tails), "not measured" (they are 0),
  // "none" (TP=1: no all_reduce); "" in older documents (their p99 was the batches' p99, not a tail).
  std::string tail;
};

// 1.6: one plain answer of a phase: the fastest TP for latency, the cheapest that still pays.
struct ProjectionAnswer {
  std::string question;  // "fastest" | "cheapest_that_pays"
  int tp = 1;
  std::string words;  // the answer with the rule behind it
};

struct ProjectionPhase {
  std::string phase;  // "prefill" | "decode"
  std::int64_t tokens_per_pass = 0;
  std::vector<ProjectionRow> rows;
  int best_tp = 1;                        // the cheapest TP that still pays: no larger TP listed pays over it
  int stops_paying_at_tp = 0;             // the next TP listed after best_tp; 0: best_tp is the last
  int fastest_tp = 1;                     // 1.6: the shortest pass
  std::vector<ProjectionAnswer> answers;  // 1.6: fastest, then cheapest_that_pays
};

// The compute side: measured or given rates, and where they come from.
struct ComputeRates {
  double gemm_tflops = 0;  // dense bf16 GEMM throughput, 1e12 FLOP/s
  double hbm_gbps = 0;     // HBM read bandwidth, 1e9 B/s
  std::string source;      // "measured on GPU 0 (NVIDIA H200)", "--gemm-tflops/--hbm-gbps"
};

// The all_reduce curve the communication times came from.
struct CurveSource {
  int gpus = 0;
  std::string dtype;
  int graph_launches = 0;
  std::uint64_t min_bytes = 0;
  std::uint64_t max_bytes = 0;
  int points = 0;
  int tail_points = 0;  // 1.6: points with single-operation tails (docs/metrics.md, "The tail")
  int hosts = 1;        // 1.6: the hosts the run spanned
  std::string run;      // 1.6: "collective run", "scale run (best placement)", "rccl-tests output"
};

// 1.6: what bounds an all_reduce over `gpus` GPUs where the document holds no curve of that many:
// computed from the document by the command (engine/), handed to the projection as data.
struct CommBound {
  int gpus = 0;
  double busbw_gbps = 0;  // 0: nothing bounds it, and `unknown` says why and what would
  // "subset_ceiling" (the ring ceiling of the best `gpus`-GPU subset of one host), "network_measured"
  // (an all_reduce across hosts in the document), "network_expected" (computed from the hosts' NICs),
  // "given" (--net-busbw: an assumption, not a bound)
  std::string kind;
  std::vector<int> placement;  // the best subset's GPUs (subset_ceiling)
  std::string source;          // in words, with where each figure comes from
  std::string unknown;
};

struct Projection {
  ModelShape model;
  Workload workload;
  ComputeRates rates;
  std::vector<CurveSource> curves;
  std::vector<CommBound> bounds;  // 1.6: those of the TPs without a curve of their own
  std::vector<ProjectionTerm> assumptions;
  std::vector<ProjectionPhase> phases;
};

}  // namespace fb
