#include "cli/p2p_cli.hpp"

#include <fmt/format.h>

#include "cli/range_checks.hpp"
#include "cli/run_request.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace fb {

CLI::App* add_p2p_subcommand(CLI::App& app, P2pOptions& o) {
  auto* p2p = app.add_subcommand("p2p", "Measure every GPU pair and every GPU's host link on its own");
  p2p->footer(R"(Copies by copy engine (as cudaMemcpy) and by SM kernel (as NCCL's kernels), one direction
and both, plus latency; every copy verified. Bandwidth in GB/s = 1e9 bytes/s, latency in ns.
Figures are held against the pair's peaks from the topology (docs/model.md).

Examples:
  fabricbench p2p
  fabricbench p2p --gpus 0,1 --size 1G --json p2p.json --csv p2p.csv
  fabricbench p2p --no-host --no-latency)");
  p2p->add_option("--gpus", o.gpus, "N (first N GPUs) or a list/range: 0,2 or 0-3 (default all)");
  p2p->add_option("--size", o.size, "Bytes per copy; K/M/G are powers of 2 (default 512M; a multiple of 4K)");
  auto& plan = o.request.measure;
  p2p->add_option("--copies", plan.copies_per_sample, "Copies timed together per sample (default 16)");
  p2p->add_option("--samples", plan.samples, "Samples per figure; the median is reported (default 5)");
  p2p->add_flag_callback(
      "--no-host", [&plan] { plan.host = false; }, "Skip host<->GPU tests");
  p2p->add_flag_callback(
      "--no-pairs", [&plan] { plan.pairs = false; }, "Skip GPU<->GPU tests");
  p2p->add_flag_callback(
      "--no-latency", [&plan] { plan.latency = false; }, "Skip latency tests");
  p2p->add_option("--margin", o.request.margin,
                  "Flag figures this fraction below their class's median (default 0.10 = 10%)");
  p2p->add_option("--latency-size", o.latency_size, "Pointer-chase buffer in bytes (default 2M = 2 MiB)");
  p2p->add_option("--latency-stride", o.latency_stride, "Bytes between chased loads (default 256)");
  p2p->add_option("--json", o.json_path, "Write the result document here");
  p2p->add_option("--csv", o.csv_path, "Write one row per measurement here");
  p2p->add_flag("-q,--quiet", o.quiet, "No progress lines");
  return p2p;
}

P2pRequest p2p_request(const P2pOptions& o) {
  P2pRequest r = o.request;
  P2pPlan& plan = r.measure;
  plan.bytes = parse_size(o.size, "--size");
  if (plan.bytes % 4096 != 0) FB_USAGE_ERROR(fmt::format("--size {} is not a multiple of 4 KiB", o.size));
  require_at_least("--copies", plan.copies_per_sample, 1);
  require_at_least("--samples", plan.samples, 1);
  if (!(r.margin > 0 && r.margin < 1))
    FB_USAGE_ERROR(fmt::format("--margin must be in (0, 1) (got {})", r.margin));
  plan.latency_bytes = parse_size(o.latency_size, "--latency-size");
  plan.latency_stride = parse_size(o.latency_stride, "--latency-stride");
  if (plan.latency_stride % 8 != 0 || plan.latency_stride > plan.latency_bytes / 2)
    FB_USAGE_ERROR("--latency-stride must be a multiple of 8 bytes and at most half of --latency-size");
  if (!plan.host && !plan.pairs)
    FB_USAGE_ERROR("nothing to measure: --no-pairs and --no-host drop everything; drop one of them");
  r.gpus = parse_gpu_selection(o.gpus);
  return r;
}

}  // namespace fb
