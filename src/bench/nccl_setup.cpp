#include "bench/nccl_setup.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "bench/collective_spec.hpp"

namespace fb {

void set_nccl_setup(Run& run, const NcclLogSummary& log) {
  run.nccl_transports.assign(log.transports.begin(), log.transports.end());
  run.nccl_coll_channels = log.coll_channels;
  run.nccl_p2p_channels = log.p2p_channels;
  run.nccl_nvls_channels = log.nvls_channels;
  run.nccl_nvls_available = log.nvls_available;
  run.nccl_nics = log.nics;
  run.nccl_network = log.network;
}

void attach_nccl_log(Run& run, const NcclLogSummary& log) {
  set_nccl_setup(run, log);
  const auto* spec = find_collective(run.collective);
  if (spec == nullptr) return;
  const auto* sizes = choices_for(log, std::string(spec->nccl_log_name));
  if (sizes == nullptr) return;
  for (auto& p : run.points)
    if (const auto it = sizes->find(p.bytes); it != sizes->end() && p.nccl_algo.empty()) {
      p.nccl_algo = it->second.algo;
      p.nccl_proto = it->second.proto;
      p.nccl_channels = it->second.channels.value_or(0);
    }
}

std::string nccl_log_gaps(const NcclLogSummary& log) {
  std::vector<std::string> gaps;
  if (log.version.empty()) gaps.emplace_back("no version line");
  if (!log.coll_channels) gaps.emplace_back("no channel counts");
  if (log.choices.empty()) gaps.emplace_back("no tuning choices (NCCL_DEBUG_SUBSYS without TUNING?)");
  if (log.unreadable_connections > 0)
    gaps.push_back(fmt::format("{} connection line{} whose transport was unreadable",
                               log.unreadable_connections, log.unreadable_connections == 1 ? "" : "s"));
  if (gaps.empty()) return "";
  return fmt::format("NCCL's log held {}: shown as \"not in NCCL's log\"", fmt::join(gaps, ", "));
}

}  // namespace fb
