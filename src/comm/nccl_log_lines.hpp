#pragma once
// The readers of NCCL's INFO lines, one per kind of line (comm/nccl_log.cpp dispatches to them).
// Each takes the text after "NCCL INFO " and returns whether the line was of its kind and read.
#include <string_view>

#include "comm/nccl_log.hpp"

namespace fb::nccl_log {

// Tuning choices: 2.24+ "AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..3}",
// 2.23 "AllReduce: 8 Bytes -> Algo 1 proto 0 time 25.20", 2.20-2.22 the same without the operation.
bool read_choice(std::string_view info, NcclLogSummary& s);
// "24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, ..." (2.20+), without
// the collnet field (2.17-2.19), or "4 coll channels, 2 p2p channels, ..." (before NVLS).
bool read_channels(std::string_view info, NcclLogSummary& s);
// "NCCL version 2.28.3+cuda13.0" -> "2.28.3"; also the bare line NCCL up to 2.21 prints to stdout.
bool read_version(std::string_view text, NcclLogSummary& s);
// "NVLS multicast support is [not ]available on dev 0", "NVLS comm 0x.. headRank 0 nHeads 8 ...",
// "NVLS Head  0:  0  8 16".
bool read_nvls(std::string_view info, NcclLogSummary& s);
// "Channel 00/0 : 0[0] -> 1[1] [send] via P2P/CUMEM": false when not a connection line; a
// connection line whose transport cannot be read is counted in `unreadable` (and not recorded).
bool read_transport(std::string_view info, NcclLogSummary& s, bool& unreadable);
// "NET/IB : Using [0]mlx5_0:1/IB/SHARP ...; OOB ...", "NET/IB : No device found.",
// "NET/Socket : Using [0]eth0:10.0.0.1<0>", "NET/Plugin: Loaded net plugin X (v8)", "Using network IB".
bool read_net(std::string_view info, NcclLogSummary& s);
// A setting NCCL took from the environment: "NCCL_IB_DISABLE set by environment to 1.", "NCCL_ALGO set by
// environment to Ring", "NCCL_IB_HCA set to mlx5_0" (nccl_log_comm.cpp).
bool read_setting(std::string_view info, NcclLogSummary& s);
// The communicator's size: "comm 0x.. rank 0 nranks 16 cudaDev 0 ..." (up to 2.18) or "comm 0x.. rank 0
// nRanks 16 nNodes 2 localRanks 8 ..." (2.19+).
bool read_comm(std::string_view info, NcclLogSummary& s);
// RCCL appends the communicator to its lines ("... comm 0xaa09f20 nRanks 08 busId ce000"): its size.
void read_comm_suffix(std::string_view info, NcclLogSummary& s);
// The host of a line "host:pid:tid [dev] NCCL INFO ..." into s.hosts.
void read_line_host(std::string_view line, NcclLogSummary& s);

}  // namespace fb::nccl_log
