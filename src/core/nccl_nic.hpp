#pragma once
// One network device NCCL said it would use, as its NET/IB or NET/Socket "Using" line names it
// (comm/nccl_log reads it; the result document carries it beside the transports).
#include <string>

namespace fb {

struct NcclNic {
  std::string net;      // NCCL's network: "IB" (InfiniBand and RoCE verbs) or "Socket"
  int index = 0;        // NCCL's device number, "[0]"
  std::string device;   // "mlx5_0", "eth0"
  int port = 0;         // the IB port ("mlx5_0:1"); 0 for sockets
  std::string link;     // "IB" or "RoCE" for IB devices (NCCL's link layer); "" for sockets
  bool sharp = false;   // "/SHARP": the SHARP plugin offers in-network reduction on this port
  std::string address;  // sockets: "10.0.0.1<0>"; "" for IB devices
  bool operator==(const NcclNic&) const = default;
};

}  // namespace fb
