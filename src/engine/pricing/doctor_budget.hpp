#pragma once
// The doctor's time budget as pure functions: the fabric's speed read from the collectives
// stage's points, an estimate of each later stage at that speed, and the cuts that make a
// stage fit the seconds left. Tested with synthetic speeds (tests/unit/test_doctor_budget.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "bench/plan.hpp"
#include "model/result.hpp"

namespace fb {

// No set of workers starts and ends faster (spawn, CUDA context, NCCL init: 1 s on 2 x H200).
inline constexpr double kMinStartS = 0.5;

// What the verified collectives measured, which scales every later stage.
struct FabricSpeed {
  double algbw_gbps = 0;  // all_reduce algbw at its largest measured size (0: unknown)
  double busbw_gbps = 0;  // and its busbw, as the messages quote it
  double latency_us = 0;  // all_reduce time at its smallest measured size
  // Fresh workers up to their first point and after their last (spawn, init, exit), as the
  // choices stage's set of workers cost (probe_start_seconds). Before that stage, a prior on
  // the safe side: 1.0-1.2 s were measured on 2 x H200, and NCCL's set-up grows with the GPUs.
  double start_s = 2.0;
  // Timed batches a point took on average in the collectives stage (0: not measured): on a
  // noisy fabric points take many more than the sampler's usual count before their interval
  // is met, and the estimates take that into account.
  double batches = 0;
  [[nodiscard]] bool known() const { return algbw_gbps > 0; }
};

// From the collectives stage: its all_reduce points give the speed, and the batches its points
// took, on average over those their budget did not stop (large points on a slow fabric stop
// early, while small ones there need many batches to meet their interval).
FabricSpeed measure_fabric(const std::vector<Run>& runs);

// The cost of one set of workers from the choices stage (NCCL's logged probe): its wall time
// `took_s` (spawn, NCCL's set-up, one operation per size, the workers' exit) less those
// operations as their samplers timed them (`points`: NCCL's first use of each algorithm and
// protocol is in them, as it is in the later points' warm-ups, not in a set of workers). Read in the
// conditions of the stages that follow (no verification, no collective but all_reduce). (The collectives
// stage's wall time less its points' GPU-busy time read 0.73-1.65 s on 2 x H200, a difference of two large
// figures on a slow fabric, while the algorithms stage paid 1.01-1.23 s per set of workers.)
double probe_start_seconds(const std::vector<Point>& points, double took_s);

// Why a stage was cut: "estimated 48 s at 2.90 GB/s all_reduce busbw; 20 s of the budget left".
std::string budget_reason(double estimate_s, const FabricSpeed& speed, double budget_s);

// The doctor's nodes stage under a job (engine/doctor_job_stages): `rounds` rounds of pairs of hosts,
// each a set of workers (`speed.start_s`), a few warm-up operations of `bytes` and a window of
// `window_s` that every pair of the round shares.
double estimate_nodes_s(int rounds, std::uint64_t bytes, double window_s, const FabricSpeed& speed);

// Seconds one all_reduce of `bytes` takes. Forced "LL" and "LL128" at large sizes: half of an
// LL line and 1/16 of an LL128 line are flags, and both run fewer bytes per cycle than Simple;
// counted as 4x and 1.3x Simple's time (the conservative side of what NCCL shows on H100/H200).
double op_seconds(const FabricSpeed& speed, std::uint64_t bytes, const std::string& proto = "");

// The choices stage: one set of workers (the prior `start_s` until that stage has measured it)
// and one logged operation per size of `sizes`, NCCL's first use in each.
double estimate_choices_s(const std::vector<std::uint64_t>& sizes, const FabricSpeed& speed);

// The algorithms stage: every configuration in fresh workers (NCCL's logged probe ran before,
// as the choices stage). Forced LL/LL128 run only sizes up to `low_latency_max_bytes` (0: every
// size).
struct AlgosGrid {
  std::vector<std::uint64_t> sizes;
  std::vector<std::string> algos;   // may hold "default"
  std::vector<std::string> protos;  // may hold "default"
  std::uint64_t low_latency_max_bytes = 0;
  bool one_axis = false;  // each algorithm with NCCL's protocol, each protocol with its algorithm
};
double estimate_algos_s(const AlgosGrid& grid, const FabricSpeed& speed, const Sampling& sampling);

// Cuts `grid` until its estimate fits `budget_s`, in this order: LL/LL128 only up to 16 MiB
// (they are NCCL's small-message protocols), the largest size while two remain, forced
// protocols (LL first), then forced algorithms. NCCL's default and the logged probe (what the
// fallback finding reads) always stay. Each cut is appended to `cuts`.
AlgosGrid fit_algos(AlgosGrid grid, const FabricSpeed& speed, const Sampling& sampling, double budget_s,
                    std::vector<DoctorCut>& cuts);

// The scaling stage: one all_reduce size on each group count, best and worst placement.
double estimate_scaling_s(std::uint64_t bytes, const std::vector<int>& counts, const FabricSpeed& speed,
                          const Sampling& sampling);
// Divides the size by 4 (not below 64 MiB) until the estimate fits `budget_s`.
std::uint64_t fit_scaling(std::uint64_t bytes, const std::vector<int>& counts, const FabricSpeed& speed,
                          const Sampling& sampling, double budget_s, std::vector<DoctorCut>& cuts);

}  // namespace fb
