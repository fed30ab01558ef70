#pragma once
// The immutable plan of a benchmark: what to run on which GPUs, how to time it.
// Built once from validated options, then sent unchanged to every worker.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/collective_spec.hpp"
#include "bench/run_settings.hpp"
#include "core/dtypes.hpp"

namespace fb {

struct PointPlan {
  std::uint64_t bytes = 0;  // reported size
  CollectiveCounts counts;
  bool in_place = false;
};

struct RunPlan {
  std::string collective;
  DType dtype = DType::float32;
  RedOp op = RedOp::sum;
  int root = 0;
  std::vector<PointPlan> points;  // expanded once, by engine/plan_builder (expand_points)
};

struct Plan {
  std::vector<RunPlan> runs;
  std::vector<int> gpus;  // device ordinals; rank i drives gpus[i]
  LauncherKind launcher = LauncherKind::processes;
  RunSettings settings;               // as the request asked, unchanged
  std::vector<std::string> cpulists;  // per rank: the GPU's local CPUs (from the topology)
  // In a job: groups of ranks that each run every point on their own, at the same time (the pairs
  // of hosts of a `nodes` round; the GPUs of each host). Empty: all ranks together. A group's
  // points are reported as run (group x runs + run); ranks in no group sit the plan out.
  std::vector<std::vector<int>> groups;

  [[nodiscard]] int nranks() const { return static_cast<int>(gpus.size()); }
};

// The points of one run on `nranks` ranks: each requested size rounded down as nccl-tests does,
// in-place variants where the collective has them; sizes that round to zero elements are dropped.
std::vector<PointPlan> expand_points(const RunPlan& run, const std::vector<std::uint64_t>& sizes,
                                     const std::vector<bool>& placements, int nranks);
// Whether `bytes` rounds to zero elements per rank in `run` (expand_points drops it).
bool size_is_dropped(const RunPlan& run, std::uint64_t bytes, int nranks);

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

void to_json(nlohmann::json& j, const Plan& p);
void from_json(const nlohmann::json& j, Plan& p);

}  // namespace fb

namespace fb {

// Which GPUs and ranks one worker process drives: with the processes launcher, process i
// drives gpus[i] as rank i (in an outside job, process = the job's rank); with the threads launcher, the
// single process drives them all.
struct LocalAssignment {
  std::vector<int> devices;
  std::vector<int> ranks;
};

// Worker processes the local launcher starts: one per rank with the processes
// launcher, else one (in an outside job, the job's launcher starts the other ranks).
int process_count(const Plan& plan);
LocalAssignment assignment_for(const Plan& plan, int process);

// The CPUs worker `process` is pinned to under --cpu-bind: its GPU's local CPUs (numa) or one of them
// per rank (core); the threads launcher's one process, which drives every GPU from one thread, on all
// its GPUs' local CPUs (numa) or the first of them (core). Empty where a GPU's CPUs are unknown; none
// where nothing is to be bound (--cpu-bind none, or a job, whose launcher binds its ranks).
std::optional<std::vector<int>> worker_cpus(const Plan& plan, int process);

}  // namespace fb
