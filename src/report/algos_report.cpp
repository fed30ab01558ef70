#include "report/algos_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "core/file_io.hpp"
#include "report/topology_console.hpp"

namespace fb {
namespace {

constexpr std::string_view kNotInNcclLog = "not in NCCL's log";

// "24 collective channels", or "collective channels not in NCCL's log"
std::string channels_or_not_logged(const std::optional<int>& n, std::string_view kind) {
  return n ? fmt::format("{} {} channels", *n, kind) : fmt::format("{} channels {}", kind, kNotInNcclLog);
}

void print_grid(std::ostream& out, const std::vector<AlgoConfig>& configs, const std::vector<SizeWinner>& w) {
  fmt::print(out, "#\n# busbw (GB/s) per size; winner; NCCL's own choice from its log\n# {:>12}", "size(B)");
  for (const auto& c : configs) fmt::print(out, " {:>13}", c.label());
  fmt::print(out, " {:>13} {:>16}\n", "winner", "NCCL chose");
  for (std::size_t i = 0; i < w.size(); ++i) {
    fmt::print(out, "  {:>12}", w[i].bytes);
    for (const auto& c : configs)
      fmt::print(out, " {:>13}", i < c.points.size() ? fmt::format("{:.1f}", c.points[i].busbw_gbps) : "-");
    fmt::print(out, " {:>13} {:>16}\n", configs[w[i].config].label(),
               w[i].nccl_algo.empty() ? "not in log" : fmt::format("{}/{}", w[i].nccl_algo, w[i].nccl_proto));
  }
  for (const auto& c : configs)
    if (!c.failure.empty()) fmt::print(out, "# {} could not run: {}\n", c.label(), c.failure);
}

}  // namespace

std::vector<SizeWinner> winners_with_nccl_choice(const std::vector<AlgoConfig>& configs) {
  auto w = winners(configs);
  for (std::size_t i = 0; i < w.size() && !configs.empty() && i < configs[0].points.size(); ++i) {
    w[i].nccl_algo = configs[0].points[i].nccl_algo;
    w[i].nccl_proto = configs[0].points[i].nccl_proto;
  }
  return w;
}

void AlgosConsoleReporter::end(const Result& result) {
  const auto& t = table_;
  fmt::print(out_, "# fabricbench algos {} ({} {}), {} GPUs, {} {}\n", t.collective, t.dtype, t.op, t.nranks,
             result.host.comm.name, result.host.comm.version);
  fmt::print(
      out_, "# NCCL set-up: transports {}; {}, {}\n",
      t.transports.empty() ? std::string(kNotInNcclLog) : fmt::format("{}", fmt::join(t.transports, ", ")),
      channels_or_not_logged(t.coll_channels, "collective"), channels_or_not_logged(t.p2p_channels, "p2p"));
  print_grid(out_, t.configs, winners_with_nccl_choice(t.configs));
  fmt::print(out_, "#\n");
  print_findings(out_, result.findings);
  out_.flush();
}

void TunerCsvReporter::end(const Result& /*result*/) {
  // The plugin needs both halves of a choice: NCCL's logged default and fully forced pairs.
  std::vector<AlgoConfig> complete;
  for (const auto& c : table_.configs)
    if (c.is_default() || (!c.algo.empty() && !c.proto.empty())) complete.push_back(c);
  const auto w = winners_with_nccl_choice(complete);
  write_file_atomically(path_, tuner_csv(table_.collective, table_.nranks, nnodes_, w, complete));
  fmt::print(out_, "# tuner configuration written to {} (load it with NCCL_TUNER_CONFIG_FILE)\n", path_);
  out_.flush();
}

}  // namespace fb
