#pragma once
// What every rank of a job must have the same, or the job cannot work (issue 40): the NCCL/RCCL
// settings that each rank applies on its own to choices its peers must make alike (algorithm,
// protocol, buffer and chunk sizes, channels, NVLS/CollNet, the network transport), so that ranks
// that differ wait for each other forever, or fail when they connect. A difference in one of these
// is an error with the action "fix the job's configuration" and stops a job at its preflight
// (engine/job_preflight); any other NCCL_* difference only changes how one host moves its data (a
// warning). docs/verdicts.md lists each with its source.
#include <array>
#include <string_view>

namespace fb {

// The action for a difference in one of them: the job is wrong, not its hosts (never "drain").
inline constexpr std::string_view kFixConfiguration = "fix the job's configuration";

struct MustAgree {
  std::string_view name;  // the variable
  std::string_view why;   // what goes wrong when ranks differ, and where that is known from
};

inline constexpr std::string_view kChoicesHang =
    "each rank picks the algorithm and protocol of every call on its own, and ranks that pick differently "
    "wait for each other forever (NVIDIA/nccl#1136, #354)";
inline constexpr std::string_view kSizesDisagree =
    "a peer sends in steps of another size than the receiver expects: a hang, or \"receiving N bytes "
    "instead of M\" (NVIDIA/nccl#1328)";
inline constexpr std::string_view kChannelsDisagree =
    "each rank applies its channel limits after the ranks agree on a graph, so ranks run a collective on "
    "different numbers of channels and wait on channels their peers never use";
inline constexpr std::string_view kTransportDisagree =
    "the ranks choose their network transport on their own: a rank on one cannot connect to a peer on "
    "another, or hangs waiting for it (NVIDIA/nccl#2428)";

inline constexpr std::array kMustAgreeEnv{
    MustAgree{"NCCL_ALGO", kChoicesHang},
    MustAgree{"NCCL_PROTO", kChoicesHang},
    MustAgree{"NCCL_TUNER_PLUGIN", kChoicesHang},
    MustAgree{"NCCL_NET_OVERHEAD", kChoicesHang},
    MustAgree{"NCCL_NVLS_ENABLE", kChoicesHang},
    MustAgree{"NCCL_COLLNET_ENABLE", kChoicesHang},
    MustAgree{"RCCL_MSCCL_ENABLE", kChoicesHang},
    MustAgree{"NCCL_BUFFSIZE", kSizesDisagree},
    MustAgree{"NCCL_NTHREADS", kSizesDisagree},
    MustAgree{"NCCL_LL128_NTHREADS", kSizesDisagree},
    MustAgree{"NCCL_MIN_NCHANNELS", kChannelsDisagree},
    MustAgree{"NCCL_MAX_NCHANNELS", kChannelsDisagree},
    MustAgree{"NCCL_MIN_CTAS", kChannelsDisagree},
    MustAgree{"NCCL_MAX_CTAS", kChannelsDisagree},
    MustAgree{"NCCL_NCHANNELS_PER_NET_PEER", kChannelsDisagree},
    MustAgree{"NCCL_MIN_P2P_NCHANNELS", kChannelsDisagree},
    MustAgree{"NCCL_MAX_P2P_NCHANNELS", kChannelsDisagree},
    MustAgree{"NCCL_NET", kTransportDisagree},
    MustAgree{"NCCL_NET_PLUGIN", kTransportDisagree},
    MustAgree{"NCCL_IB_DISABLE", kTransportDisagree},
};

// What NCCL itself refuses: ranks of different versions (init.cc: "Mismatched NCCL version detected",
// ncclInvalidUsage when the communicator is created).
inline constexpr std::string_view kVersionsDisagree =
    "NCCL refuses to connect ranks of different versions (\"Mismatched NCCL version detected\" when the "
    "communicator is created), and protocols are not promised across versions";

// The entry of `variable`, or nullptr when a difference in it only changes speed.
const MustAgree* must_agree(std::string_view variable);

}  // namespace fb
