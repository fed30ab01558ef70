#pragma once
// Which network NCCL joined the hosts of a run with, as far as the document tells: NCCL's log (the
// network it chose, its NET transports), the environment (NCCL_IB_DISABLE=1, NCCL_NET=Socket), else
// the hosts' facts (up IB/RoCE ports, a NET plugin). Only over IB/RoCE is a NIC bound computed
// (analyse/expect/network_bound.hpp): sockets have no rate, and a plugin's devices are not known here.
#include <string>

#include "model/result.hpp"

namespace fb {

enum class NetPath {
  ib,           // NCCL's IB transport (InfiniBand or RoCE verbs), or NVIDIA's IB plugin (IBext)
  sockets,      // TCP sockets
  plugin,       // another NET plugin (AWS OFI, a vendor's): its devices and rates are not known here
  not_network,  // NCCL's transports name no network: the hosts are joined otherwise (NVLink, MNNVL)
  unknown       // neither NCCL's log nor the hosts' ports are in the document
};

struct NetworkUsed {
  NetPath path = NetPath::unknown;
  std::string evidence;  // "NCCL's log: NET/IB/0/GDRDMA", "assumed: ...", why unknown
};

NetworkUsed network_used(const Result& r, const Run& run);

// The network facts of `host`: its section's (`hosts`), else the document's own where the document
// has no host sections (`assumed` then says so, unless `host` is the document's own host); nullptr
// when that host's network was not read.
const NetworkFacts* host_network(const Result& r, const std::string& host, bool& assumed);

}  // namespace fb
