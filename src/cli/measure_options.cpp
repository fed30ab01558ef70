#include "cli/measure_options.hpp"

#include <fmt/format.h>

#include "cli/enum_option.hpp"
#include "cli/range_checks.hpp"
#include "comm/launch_env.hpp"
#include "core/error.hpp"
#include "gpu/vendor.hpp"

namespace fb {

void add_size_options(CLI::App* app, RunOptions& o) {
  const char* grp = "Sizes";

  app->add_option("-b,--minbytes", o.min_bytes,
                  "Smallest size in bytes; K/M/G/T are powers of 2 (default 1M)")
      ->group(grp);
  app->add_option("-e,--maxbytes", o.max_bytes, "Largest size in bytes (default 1G = 1 GiB)")->group(grp);
  app->add_option("-f,--stepfactor", o.step_factor, "Multiply the size by this each step (default 2)")
      ->group(grp);
  app->add_option("-i,--stepbytes", o.step_bytes, "Add this many bytes each step instead (K/M/G allowed)")
      ->group(grp);
  app->add_option("--sizes", o.sizes, "Explicit list of sizes in bytes, e.g. 1M,64M,1G")
      ->delimiter(',')
      ->group(grp);
}

void add_data_options(CLI::App* app, RunOptions& o, bool verification) {
  const char* grp = "Data";
  app->add_option("-d,--datatype", o.dtype,
                  "int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double f8e4m3 "
                  "f8e5m2, a comma list of them, or 'all' (default float)")
      ->group(grp);
  app->add_option("-o,--op", o.op, "sum prod max min avg, a comma list of them, or 'all' (default sum)")
      ->group(grp);
  app->add_option("-r,--root", o.request.root,
                  "Root rank of broadcast, reduce, gather and scatter (default 0)")
      ->group(grp);
  auto& check = o.request.settings.check;
  const auto set_check = [&check](int c) {
    if (c != 0 && c != 1) FB_USAGE_ERROR(fmt::format("-c/--check takes 0 or 1 (got {})", c));
    check = c == 1;
  };
  if (!verification) {
    // Not this command's, yet parsed (and hidden): refuse_run_only_flags says so plainly, where
    // CLI11 would take the value for a second collective.
    app->add_option_function<int>("-c,--check", set_check)->group("");
    app->add_option("--in-place", o.in_place)->group("");
    return;
  }
  app->add_option("--in-place", o.in_place, "off | on | both: in-place variants (default off)")
      ->check(CLI::IsMember({"off", "on", "both"}))
      ->group(grp);
  app->add_option_function<int>(
         "-c,--check", set_check,
         "0 | 1: 1 verifies every point's results, wrong elements -> exit 1 (default 0)")
      ->group(grp);
}

void add_timing_options(CLI::App* app, RunOptions& o) {
  const char* grp = "Timing";
  auto& s = o.request.settings.sampling;
  app->add_option_function<int>(
         "-n,--iters",
         [&s](int n) {
           require_at_least("-n/--iters", n, 1);  // 0 is the default's "as many as ~1 ms needs"
           s.iters = n;
         },
         "Operations per timed batch (default: as many as ~1 ms of GPU time needs, 1 to 1000)")
      ->group(grp);
  app->add_option_function<int>(
         "-w,--warmup_iters",
         [&s](int n) {
           require_at_least("-w/--warmup_iters", n, 0);  // -1 is the default's "at least 30 ms"
           s.warmup = n;
         },
         "Untimed operations before timing (default: at least 2 operations and 30 ms)")
      ->group(grp);
  app->add_option("-G,--cudagraph", s.graph_launches,
                  "Capture a batch in a CUDA graph and launch it N times (default 0: off)")
      ->group(grp);
  app->add_option("--batches", s.min_batches, "Timed batches per point, at least (default 6)")->group(grp);
  app->add_option("--max-batches", s.max_batches, "Timed batches per point, at most (default 200)")
      ->group(grp);
  app->add_option("--target-ci", s.target_ci,
                  "Stop a point once its median time is known to +-this fraction at 95% "
                  "(default 0.01; 0 = exactly --batches batches)")
      ->group(grp);
  app->add_option_function<int>(
         "--tail-iters",
         [&s](int n) {
           require_at_least("--tail-iters", n, 0);
           s.tail_iters = n;
         },
         "Single operations timed one by one after each point's batches, for its tail (p50/p99/max "
         "of single operations; default: as many as 50 ms holds, 100 to 200; none where a batch is one "
         "operation already, whose batches are then used; 0: none; not with -G)")
      ->group(grp);
  app->add_option_function<int>(
         "-I,--per_iter_timing",
         [&s](int on) {
           if (on != 0 && on != 1)
             FB_USAGE_ERROR(fmt::format("-I/--per_iter_timing must be 0 or 1 (got {})", on));
           s.tail_iters = on == 0 ? 0 : -1;
         },
         "0 | 1, as nccl-tests' -I: 0 is --tail-iters 0; 1 the default (the tail is always timed)")
      ->group(grp);
  app->add_option(
         "--max-time", s.max_time_s,
         "Time budget of a point's timed batches in seconds, overrun by one batch at most (default 1)")
      ->group(grp);
}

void add_launch_options(CLI::App* app, RunOptions& o, bool launcher) {
  const char* grp = "GPUs and launch";
  auto& settings = o.request.settings;
  app->add_option("--gpus", o.gpus,
                  "N (the first N GPUs) or a list/range: 0,2 or 0-3 (default all; in a job of mpirun, "
                  "torchrun or srun: per host)")
      ->group(grp);
  if (launcher)
    app->add_option(
           "--launcher", o.launcher,
           "processes: one worker process per GPU (default); threads: one process drives "
           "all GPUs. Started by mpirun, torchrun or srun, each rank drives one GPU (found from "
           "their variables); local ignores those variables, a launcher's name forces it (docs/launch.md)")
        ->check(CLI::IsMember(launcher_choices()))
        ->group(grp);
  add_enum_option(
      app, "--cpu-bind", settings.cpu_bind,
      "none | numa (each worker on its GPU's local CPUs; threads: the one worker on all its GPUs') | "
      "core (one of them per rank, as mpirun binds) (default none)")
      ->group(grp);
  add_enum_option(app, "--alloc", settings.alloc,
                  "Buffers from nccl (ncclMemAlloc, as nccl-tests 2.19+ allocates; default) or runtime "
                  "(cudaMalloc, as PyTorch's caching allocator does)")
      ->group(grp);
  add_enum_option(app, "--fill", settings.fill,
                  "What the timed buffers hold: pattern (random-looking bits; default) or zeros (as a "
                  "script timing torch.zeros tensors; slower at large all_gather/reduce_scatter on H200; "
                  "not with -c)")
      ->group(grp);
  app->add_option("-T,--timeout", settings.timeout_s,
                  "Seconds a point (or NCCL set-up) may take before the run is stopped (default 120; -T as "
                  "in nccl-tests)")
      ->group(grp);
  app->add_option("--nccl-lib", settings.nccl_lib,
                  fmt::format("NCCL library to load (default: {})", gpu::default_collective_library()))
      ->group(grp);
  add_allow_mismatch_flag(app, settings)->group(grp);
}

CLI::Option* add_allow_mismatch_flag(CLI::App* app, RunSettings& settings) {
  return app->add_flag("--allow-mismatch", settings.allow_mismatch,
                       "Under mpirun, torchrun or srun: run although the hosts disagree on what NCCL needs "
                       "alike on every rank (NCCL_ALGO, NCCL_PROTO, the NCCL version...: docs/verdicts.md); "
                       "without it such a job is refused before its first collective (exit 2)");
}

void refuse_run_only_flags(const RunOptions& o, const char* command) {
  const RunOptions defaults;
  if (o.request.settings.check != defaults.request.settings.check || o.in_place != defaults.in_place)
    FB_USAGE_ERROR(
        fmt::format("-c/--check and --in-place are not flags of `{}`: only `run` verifies results "
                    "and runs in place",
                    command));
}

}  // namespace fb
