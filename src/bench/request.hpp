#pragma once
// What a command asks to measure, typed: sizes in bytes, element types, GPUs as a selection.
// cli/ fills a request from the user's strings once (every syntax error is raised there);
// doctor, scale and algos build theirs directly. engine/plan_builder.hpp turns a request and
// the machine's facts into the immutable Plan, with the checks that need the machine.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench/p2p_plan.hpp"
#include "bench/plan.hpp"
#include "core/dtypes.hpp"

namespace fb {

// Which GPUs: every visible one, the first N, or these device ids in this order.
struct GpuSelection {
  enum class Kind { all, first, ids };
  Kind kind = Kind::all;
  int count = 0;         // Kind::first: N >= 1
  std::vector<int> ids;  // Kind::ids: distinct ordinals

  static GpuSelection all() { return {}; }
  static GpuSelection first(int n) { return {Kind::first, n, {}}; }
  static GpuSelection these(std::vector<int> ids) { return {Kind::ids, 0, std::move(ids)}; }
  // As the user writes it: "" (all), "4" (first 4), "0,2" (these).
  [[nodiscard]] std::string text() const;
};

// A collective measurement (run, and each step of algos, scale and doctor).
struct RunRequest {
  std::vector<std::string> collectives;  // names from the collective table, each once
  std::vector<DType> dtypes{DType::float32};
  std::vector<RedOp> ops{RedOp::sum};  // for the collectives that reduce
  int root = 0;                        // broadcast and reduce
  std::vector<std::uint64_t> sizes;    // bytes, before each collective's rounding
  GpuSelection gpus;
  std::vector<bool> placements{false};  // false = out-of-place, true = in-place
  Sampling sampling;
  LauncherKind launcher = LauncherKind::processes;  // under mpirun the engine makes it mpi
  bool check = false;
  bool inject_corruption = false;               // testing aid: one wrong element on rank 0
  std::map<std::string, std::string> nccl_env;  // forced NCCL settings (NCCL_ALGO, NCCL_PROTO)
  double timeout_s = 120;
  std::string nccl_lib;  // empty: the dynamic loader's libnccl.so.2
  CpuBind cpu_bind = CpuBind::none;
  BufferAlloc alloc = BufferAlloc::nccl;
  BufferFill fill = BufferFill::pattern;
};

// `fabricbench algos`: one collective's sweep, NCCL's choice against forced ones.
struct AlgosRequest {
  RunRequest measure;
  std::vector<std::string> algos;   // NCCL_ALGO values; "default" leaves it to NCCL
  std::vector<std::string> protos;  // NCCL_PROTO values; "default" likewise
  std::string keep_logs;            // directory to keep NCCL's debug logs in ("" = delete them)
};

// `fabricbench scale`: one collective at one size on growing groups of GPUs.
struct ScaleRequest {
  RunRequest measure;       // one collective, one size; the GPUs are chosen per group
  std::vector<int> counts;  // group sizes; empty: 1, 2, 4, ... up to every GPU
  bool best = true;         // groups on the strongest links
  bool worst = true;        // groups spread over sockets and switches
};

// `fabricbench p2p`: every pair and every host link.
struct P2pRequest {
  GpuSelection gpus;
  P2pPlan measure;       // every setting but gpus and cpulists, which come from the machine
  double margin = 0.10;  // flag figures this far below their class's median
};

// `fabricbench doctor`: the whole check; what it measures follows from quick or thorough.
struct DoctorRequest {
  bool quick = false;
  GpuSelection gpus;
  std::string nccl_lib;
  double timeout_s = 120;
  bool inject_corruption = false;  // testing aid for the verified collectives
  // Seconds the whole doctor may take: later stages are estimated from the measured speed and
  // cut to fit (engine/doctor_budget.hpp). cli/ sets it from --budget or the mode's default.
  double budget_s = 40;
};

// Sizes from `lo` to `hi`: each `step` bytes larger, or else `factor` times larger (nccl-tests'
// -b/-e/-i/-f). Throws a usage error past 4096 sizes.
std::vector<std::uint64_t> size_sweep(std::uint64_t lo, std::uint64_t hi, double factor, std::uint64_t step);

}  // namespace fb
