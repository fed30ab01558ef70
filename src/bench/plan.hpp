#pragma once
// The immutable plan of a benchmark: what to run on which GPUs, how to time it.
// Built once from validated options, then sent unchanged to every worker.
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "bench/collective_spec.hpp"
#include "core/dtypes.hpp"

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
  // A batch of ~1 ms of GPU time: the events' resolution (~0.5 us) is then <0.1% of it, and a
  // large operation runs alone (1 per batch) instead of 20 times.
  double batch_target_s = 1e-3;
  int max_ops_per_batch = 1000;  // the most a launch-bound (microsecond) operation needs
  // Warm-up by time: at least 2 operations (the first pays NCCL's first-use connection and
  // buffer set-up, the second is steady) and 30 ms, the order of NCCL's lazy set-up of a new
  // algorithm/protocol; ends after 8 synchronized chunks at most.
  double warmup_s = 0.03;
  int min_warmup_ops = 2;
};

struct RunPlan {
  std::string collective;
  DType dtype = DType::float32;
  RedOp op = RedOp::sum;
  int root = 0;
};

struct PointPlan {
  std::uint64_t bytes = 0;  // reported size
  CollectiveCounts counts;
  bool in_place = false;
};

// processes: one self-launched worker process per GPU; threads: one process drives every GPU;
// mpi: started by mpirun/srun, one MPI rank per GPU (hosts may differ).
enum class LauncherKind { processes, threads, mpi };

// Worker processes' CPUs: none; numa: the GPU's local CPUs; core: one of them per rank.
enum class CpuBind { none, numa, core };

// Where the benchmark's send/receive buffers come from: nccl, the library's own allocator
// (ncclMemAlloc, as nccl-tests 2.19+ allocates; the runtime's when the library has none);
// runtime, cudaMalloc/hipMalloc (as PyTorch's caching allocator without expandable segments).
enum class BufferAlloc { nccl, runtime };
// What the timed buffers hold: a random-looking pattern (default) or zeros (as a script that
// times torch.zeros tensors does).
enum class BufferFill { pattern, zeros };

struct Plan {
  std::vector<RunPlan> runs;
  std::vector<std::uint64_t> sizes;  // requested sizes in bytes, before per-collective rounding
  std::vector<bool> placements;      // false = out-of-place, true = in-place
  std::vector<int> gpus;             // device ordinals; rank i drives gpus[i]
  LauncherKind launcher = LauncherKind::processes;
  Sampling sampling;
  bool check = false;
  bool inject_corruption = false;  // testing aid: corrupts one output element on rank 0
  double timeout_s = 120;
  std::string nccl_lib;  // empty: the dynamic loader's libnccl.so.2
  // NCCL settings the workers start with (NCCL_ALGO, NCCL_PROTO, NCCL_DEBUG...): NCCL reads
  // them when a communicator is created, so each setting needs fresh workers.
  std::map<std::string, std::string> nccl_env;
  CpuBind cpu_bind = CpuBind::none;
  BufferAlloc alloc = BufferAlloc::nccl;
  BufferFill fill = BufferFill::pattern;
  std::vector<std::string> cpulists;  // per rank: the GPU's local CPUs (from the topology)

  [[nodiscard]] int nranks() const { return static_cast<int>(gpus.size()); }
};

// The points of one run: each requested size rounded down as nccl-tests does, in-place
// variants where the collective has them; sizes that round to zero elements are dropped.
std::vector<PointPlan> plan_points(const Plan& plan, const RunPlan& run);

// NCCL's own per-GPU allocations (channel buffers, work queues) on top of the benchmark's:
// a conservative allowance, so that fit checks err on the side of refusing.
inline constexpr std::uint64_t kNcclReserveBytes = 1ULL << 30;

// Largest send and receive buffers (bytes) any point of the plan needs on one GPU.
struct BufferNeeds {
  std::uint64_t send = 0;
  std::uint64_t recv = 0;
  // Saturates: a sum past 2^64 (a hostile --sizes) must not wrap to a size that fits.
  [[nodiscard]] std::uint64_t total_with_nccl() const {
    constexpr std::uint64_t kMax = ~std::uint64_t{0};
    if (send > kMax - recv || send + recv > kMax - kNcclReserveBytes) return kMax;
    return send + recv + kNcclReserveBytes;
  }
};
BufferNeeds buffer_needs(const Plan& plan);

// How many distinct buffer offsets the iterations of a batch cycle through (iteration i uses
// offset (i % steps) x the point's larger buffer). nccl-tests moves each iteration to a new
// offset inside its largest-size buffers, so that a point smaller than the GPU's L2 cache is
// not timed on cache-resident data; the same here, within the buffers the largest point needs
// (a sweep of a single size therefore does not move). At most `iters`, at least 1.
std::size_t rotation_steps(const PointPlan& p, std::size_t elem, const BufferNeeds& buffers, int iters);

std::string to_string(LauncherKind k);
std::string to_string(CpuBind b);
// "none" | "numa" | "core"; throws a usage error naming --cpu-bind otherwise.
CpuBind parse_cpu_bind(const std::string& text);
std::string to_string(BufferAlloc a);
// "nccl" | "runtime"; throws a usage error naming --alloc otherwise.
BufferAlloc parse_buffer_alloc(const std::string& text);
std::string to_string(BufferFill f);
// "pattern" | "zeros"; throws a usage error naming --fill otherwise.
BufferFill parse_buffer_fill(const std::string& text);

void to_json(nlohmann::json& j, const Plan& p);
void from_json(const nlohmann::json& j, Plan& p);

}  // namespace fb

namespace fb {

// Which GPUs and ranks one worker process drives: with the processes launcher, process i
// drives gpus[i] as rank i (under MPI, process = MPI rank); with the threads launcher, the
// single process drives them all.
struct LocalAssignment {
  std::vector<int> devices;
  std::vector<int> ranks;
};

// Worker processes (or threads) the local launcher starts: one per rank with the processes
// launcher, else one (under MPI, the other ranks are started by mpirun).
int process_count(const Plan& plan);
LocalAssignment assignment_for(const Plan& plan, int process);

}  // namespace fb
