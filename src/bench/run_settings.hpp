#pragma once
// What every point of a collective measurement shares, typed: the command line binds its flags
// straight into it (cli/measure_options.cpp), a request embeds it, and the plan the workers
// receive embeds the same struct unchanged (engine/plans/plan_builder.cpp assigns it whole). A new
// setting is one field here, with its name in the JSON list below.
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/enum_names.hpp"

namespace fb {

// How long to sample a point (DESIGN.md, "Adaptive sampling"; bench/sampler.hpp decides).
struct Sampling {
  int iters = 0;           // operations per timed batch: 0 sized by time (batch_target_s); N: -n N
  int warmup = -1;         // untimed operations first: -1 by time (warmup_s); N: -w N
  int graph_launches = 0;  // 0: plain launches; N: a graph of the batch's operations launched N times (-G)
  int min_batches = 6;     // 6: the fewest whose order statistics bound the median (core/stats)
  int max_batches = 200;
  double target_ci = 0.01;  // stop once the median is known to +-this (95% CI); 0: fixed count
  double max_time_s = 1.0;  // per point, its timed batches (never overrun by more than one batch)
  // Measure for all of max_time_s whatever the interval (up to max_batches): `nodes`' pairs of a
  // round then share one window, none running alone after the others stopped.
  bool full_window = false;
  // A batch of ~1 ms of GPU time: the events' resolution (~0.5 us) is then <0.1% of it, and a
  // large operation runs alone (1 per batch) instead of 20 times.
  double batch_target_s = 1e-3;
  int max_ops_per_batch = 1000;  // the most a launch-bound (microsecond) operation needs
  // Warm-up by time: at least 2 operations (the first pays NCCL's first-use connection and
  // buffer set-up, the second is steady) and 30 ms, the order of NCCL's lazy set-up of a new
  // algorithm/protocol; ends after 8 synchronized chunks at most.
  double warmup_s = 0.03;
  int min_warmup_ops = 2;
  // Single operations timed one by one after the batches, for the tail (bench/iteration_times.hpp):
  // -1 by time (as many as tail_time_s holds, min_tail_iters to max_tail_iters; none where a timed
  // batch is one operation already: its batches are the single operations); 0 none
  // (--tail-iters 0); N exactly N (--tail-iters N).
  int tail_iters = -1;
  double tail_time_s = 0.05;  // 50 ms: 5% of a point's default 1 s budget
  int min_tail_iters = 100;   // the fewest whose nearest-rank p99 is not the max
  int max_tail_iters = 200;
};

// processes: one self-launched worker process per GPU; threads: one process drives every GPU;
// job: a rank of an outside job (mpirun, torchrun, srun), one GPU per rank (hosts may differ).
enum class LauncherKind { processes, threads, job };

// Worker processes' CPUs: none; numa: the GPU's local CPUs; core: one of them per rank.
enum class CpuBind { none, numa, core };

// Where the benchmark's send/receive buffers come from: nccl, the library's own allocator
// (ncclMemAlloc, as nccl-tests 2.19+ allocates; the runtime's when the library has none);
// runtime, cudaMalloc/hipMalloc (as PyTorch's caching allocator without expandable segments).
enum class BufferAlloc { nccl, runtime };
// What the timed buffers hold: a random-looking pattern (default) or zeros (as a script that
// times torch.zeros tensors does).
enum class BufferFill { pattern, zeros };

template <>
struct EnumNames<LauncherKind> {
  static constexpr std::string_view what = "launcher";
  static constexpr std::array<EnumName<LauncherKind>, 3> table{{{LauncherKind::processes, "processes"},
                                                                {LauncherKind::threads, "threads"},
                                                                {LauncherKind::job, "job"}}};
};
template <>
struct EnumNames<CpuBind> {
  static constexpr std::string_view what = "--cpu-bind";
  static constexpr std::array<EnumName<CpuBind>, 3> table{
      {{CpuBind::none, "none"}, {CpuBind::numa, "numa"}, {CpuBind::core, "core"}}};
};
template <>
struct EnumNames<BufferAlloc> {
  static constexpr std::string_view what = "--alloc";
  static constexpr std::array<EnumName<BufferAlloc>, 2> table{
      {{BufferAlloc::nccl, "nccl"}, {BufferAlloc::runtime, "runtime"}}};
};
template <>
struct EnumNames<BufferFill> {
  static constexpr std::string_view what = "--fill";
  static constexpr std::array<EnumName<BufferFill>, 2> table{
      {{BufferFill::pattern, "pattern"}, {BufferFill::zeros, "zeros"}}};
};

struct RunSettings {
  std::vector<bool> placements{false};  // false = out-of-place, true = in-place
  Sampling sampling;
  bool check = false;              // verify every point's results (-c 1)
  bool inject_corruption = false;  // testing aid: corrupts one output element on rank 0
  double timeout_s = 120;
  std::string nccl_lib;  // empty: the dynamic loader's libnccl.so.2
  // NCCL settings the workers start with (NCCL_ALGO, NCCL_PROTO, NCCL_DEBUG...): NCCL reads
  // them when a communicator is created, so each setting needs fresh workers.
  std::map<std::string, std::string> nccl_env;
  CpuBind cpu_bind = CpuBind::none;
  BufferAlloc alloc = BufferAlloc::nccl;
  BufferFill fill = BufferFill::pattern;
  // Under a job: measure although the hosts disagree on what NCCL needs alike on every rank (the
  // preflight, engine/job_preflight, then only warns); off, such a job is refused before it starts.
  bool allow_mismatch = false;
};

// The plan's JSON (what rank 0 hands every worker): every field, by its name.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Sampling, iters, warmup, graph_launches, min_batches, max_batches,
                                   target_ci, max_time_s, full_window, batch_target_s, max_ops_per_batch,
                                   warmup_s, min_warmup_ops, tail_iters, tail_time_s, min_tail_iters,
                                   max_tail_iters)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RunSettings, placements, sampling, check, inject_corruption, timeout_s,
                                   nccl_lib, nccl_env, cpu_bind, alloc, fill, allow_mismatch)

}  // namespace fb
