#include "cli/foreign_flags.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "core/error.hpp"

namespace fb {
namespace {

struct Foreign {
  std::string_view flag;
  std::string_view commands;  // the commands it is refused in, space-separated
  std::string_view instead;
};

constexpr std::string_view kMeasuring = "run algos scale";

// nccl-tests' flags fabricbench does not have (its README's "Arguments"), and other commands' spellings.
constexpr std::array<Foreign, 21> kForeign{{
    {"-g", kMeasuring,
     "-g is nccl-tests' GPUs per thread; fabricbench drives the GPUs you select: --gpus N (the first N) or "
     "--gpus 0,2"},
    {"-t", kMeasuring,
     "-t is nccl-tests' threads per process; fabricbench runs one process per GPU (the default) or one "
     "process driving every GPU: --launcher threads"},
    {"-J", kMeasuring,
     "-J is nccl-tests' JSON output file; fabricbench writes its result document with --json FILE"},
    {"-F", kMeasuring,
     "-F is nccl-tests' CSV output file; fabricbench writes one row per point with --csv FILE"},
    {"-a", kMeasuring,
     "-a is nccl-tests' averaging across ranks; fabricbench times every batch on every rank and keeps the "
     "slowest rank's time, with no flag (docs/metrics.md)"},
    {"-N", kMeasuring,
     "-N is nccl-tests' repeated cycles; fabricbench samples each point until its median is known "
     "(--batches, "
     "--max-batches, --target-ci, --max-time): run the command again to repeat it"},
    {"-z", kMeasuring,
     "-z is nccl-tests' blocking collectives; fabricbench always launches without blocking, as NCCL's users "
     "do"},
    {"-m", kMeasuring,
     "-m is nccl-tests' operations aggregated per iteration; use -n N (operations per timed batch) or -G N "
     "(CUDA graphs)"},
    {"-p", kMeasuring,
     "-p is nccl-tests' parallel NCCL set-up; every fabricbench worker sets NCCL up at once, with no flag"},
    {"-C", kMeasuring,
     "-C is nccl-tests' CPU-time report; fabricbench times on the GPU only (docs/metrics.md)"},
    {"-R", kMeasuring,
     "-R is nccl-tests' buffer registration; fabricbench's buffers come from ncclMemAlloc (--alloc nccl, the "
     "default) or cudaMalloc (--alloc runtime)"},
    {"--size", "run algos",
     "`--size` takes one size in p2p and scale; here the sizes are --sizes LIST or -b/-e/-f"},
    {"--sizes", "p2p scale", "`--sizes` is run's and algos' list; this command takes one size: --size SIZE"},
    {"--out", "run algos scale p2p topo project",
     "`--out DIR` is the doctor's results folder; this command writes its result document with --json FILE"},
    {"--output", "run algos scale p2p topo project",
     "this command writes its result document with --json FILE; `fabricbench report FILE -o page.html` "
     "renders it"},
    {"-o", "doctor", "the doctor writes a folder (result.json, report.html, summary.md): --out DIR"},
    {"-o", "p2p topo project",
     "-o is report's and compare's output file; this command writes its document with --json FILE, and "
     "`fabricbench report FILE -o page.html` renders it"},
    {"--json", "doctor", "the doctor writes a folder (result.json, report.html, summary.md): --out DIR"},
    {"--output", "doctor", "the doctor writes a folder (result.json, report.html, summary.md): --out DIR"},
    {"--markdown", "report", "report's format is --format md (or an output file ending in .md)"},
    {"--json", "report compare", "this command renders a result: -o FILE (.html, .md, .csv) or --format"},
}};

bool in(std::string_view list, std::string_view word) {
  for (std::size_t start = 0; start <= list.size();) {
    const auto end = std::min(list.find(' ', start), list.size());
    if (list.substr(start, end - start) == word) return true;
    start = end + 1;
  }
  return false;
}

// "-g", "-g8", "-g=8" and "--size=1G" name the flag; "-gpus" does not.
bool names(std::string_view arg, std::string_view flag) {
  if (!arg.starts_with(flag)) return false;
  if (arg.size() == flag.size()) return true;
  const char next = arg[flag.size()];
  return next == '=' || (flag.size() == 2 && next >= '0' && next <= '9');
}

// `run -o page.html`: -o is the reduction op there (nccl-tests' meaning); a file name is a slip.
void refuse_output_as_op(std::string_view command, std::string_view value) {
  if (!in(kMeasuring, command)) return;
  if (value.find('.') == std::string_view::npos && value.find('/') == std::string_view::npos) return;
  FB_USAGE_ERROR(
      fmt::format("-o is the reduction op in `{0}`, as in nccl-tests (sum, prod, max, min, avg), not "
                  "'{1}': write the result with --json FILE, then `fabricbench report FILE -o {1}`",
                  command, value));
}

}  // namespace

void refuse_foreign_flags(const std::vector<std::string>& args) {
  constexpr std::array<std::string_view, 9> kCommands{"run",     "topo",   "p2p",     "algos", "scale",
                                                      "compare", "report", "project", "doctor"};
  std::string_view command;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--") return;  // what follows is not a flag
    if (command.empty()) {
      if (std::find(kCommands.begin(), kCommands.end(), arg) != kCommands.end()) command = arg;
      continue;
    }
    if (arg == "-o" && i + 1 < args.size()) refuse_output_as_op(command, args[i + 1]);
    for (const auto& f : kForeign)
      if (in(f.commands, command) && names(arg, f.flag))
        FB_USAGE_ERROR(fmt::format("{} is not a flag of `fabricbench {}`: {}", f.flag, command, f.instead));
  }
}

}  // namespace fb
