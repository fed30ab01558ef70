#include "engine/nccl_setup.hpp"

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

}  // namespace fb
