#include "cli/scale_cli.hpp"

#include <fmt/format.h>

#include "cli/measure_options.hpp"
#include "cli/run_request.hpp"
#include "core/error.hpp"
#include "core/parse_number.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

// GPU counts as written; whether the machine has that many is the engine's check.
std::vector<int> parse_counts(const std::string& text) {
  std::vector<int> counts;
  if (text.empty()) return counts;
  for (const auto& item : parse_name_list(text, "--counts")) {
    const int c = parse_int_in(item, "--counts entry");
    if (c < 1) FB_USAGE_ERROR(fmt::format("--counts asks for {} GPUs: give at least 1", c));
    counts.push_back(c);
  }
  return counts;
}

}  // namespace

CLI::App* add_scale_subcommand(CLI::App& app, ScaleOptions& o) {
  auto* scale = app.add_subcommand("scale", "Busbw and time as the job grows, on well and badly placed GPUs");
  scale->footer(R"(Runs one collective at one size on 1, 2, 4, ... GPUs (or --counts), choosing the GPUs from
the topology: best keeps a group on the strongest links, worst spreads it over sockets and
switches. Scaling efficiency = busbw / busbw of the smallest multi-GPU group of the same
placement. Bandwidths in GB/s = 1e9 bytes/s.

Examples:
  fabricbench scale all_reduce --size 1G
  fabricbench scale all_gather --size 256M --counts 2,4,8 --placement best --json scale.json)");
  scale->add_option("collective", o.measure.collectives, "The collective to scale")->required()->expected(1);
  scale->add_option("--size", o.size, "Message size in bytes; K/M/G are powers of 2 (default 1G = 1 GiB)");
  scale->add_option("--counts", o.counts, "GPU counts, e.g. 2,4,8 (default 1, 2, 4, ... all)");
  scale->add_option("--placement", o.placement, "best | worst | both (default both)")
      ->check(CLI::IsMember({"best", "worst", "both"}));
  add_data_options(scale, o.measure, /*verification=*/false);
  add_timing_options(scale, o.measure);
  add_launch_options(scale, o.measure, /*launcher=*/true);
  // Kept out of the help but still parsed, so that scale_request can say what to give instead.
  scale->get_option("--gpus")->group("");
  scale->add_option("--json", o.measure.json_path, "Write the result document here");
  scale->add_option("--csv", o.measure.csv_path, "Write one row per count and placement here");
  return scale;
}

ScaleRequest scale_request(const ScaleOptions& o) {
  RunOptions m = o.measure;
  refuse_run_only_flags(m, "scale");
  if (!m.gpus.empty()) FB_USAGE_ERROR("scale chooses the GPUs itself: give --counts instead of --gpus");
  parse_size(o.size, "--size");  // named as the user wrote it
  m.sizes = {o.size};
  ScaleRequest r;
  r.measure = run_request(m);
  if (m.collectives.size() != 1) FB_USAGE_ERROR("scale takes exactly one collective");
  r.counts = parse_counts(o.counts);
  r.best = o.placement != "worst";
  r.worst = o.placement != "best";
  return r;
}

}  // namespace fb
