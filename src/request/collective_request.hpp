#pragma once
// What a command asks to measure, typed: sizes in bytes, element types, GPUs as a selection.
// cli/ binds the user's flags straight into a request (every syntax error is raised there);
// doctor, scale and algos build theirs directly. engine/plans/plan_builder.hpp turns a request and
// the machine's facts into the immutable Plan, with the checks that need the machine.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/run_settings.hpp"
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
  LauncherKind launcher = LauncherKind::processes;  // in an outside job the engine makes it `job`
  RunSettings settings;                             // handed to the plan whole
  // run: after the timed sweep, one logged operation per point records NCCL's transports,
  // channels, NVLS and its algorithm and protocol at each size (engine/plans/nccl_probe.hpp); not where
  // the ranks run NCCL in this process (an outside job).
  bool read_nccl_log = true;
};

// Sizes from `lo` to `hi`: each `step` bytes larger, or else `factor` times larger (nccl-tests'
// -b/-e/-i/-f). Throws a usage error past 4096 sizes.
std::vector<std::uint64_t> size_sweep(std::uint64_t lo, std::uint64_t hi, double factor, std::uint64_t step);

}  // namespace fb
