#pragma once
// What every rank of a job must have the same, or the job cannot work (issue 40): the NCCL/RCCL
// settings that each rank applies on its own to choices its peers must make alike (algorithm,
// protocol, buffer, step and chunk sizes, channels, NVLS/CollNet, the network transport), so that ranks
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
inline constexpr std::string_view kStepsDisagree =
    "each rank takes its own send/receive step from it (NCCL's init.cc computeBuffSizes; never exchanged): "
    "ranks that differ post receives of one size and send another, which a socket network truncates "
    "(\"message "
    "truncated\") and then waits on forever (NVIDIA/nccl PR #2410); RCCL fixed ranks diverging on the same "
    "value (ROCm/rocm-systems PR #6516); alltoall hung with it on one of 2 hosts (fabricbench issue 50)";
inline constexpr std::string_view kChunkDisagrees =
    "each rank cuts its sends and receives into chunks of this size on its own (NCCL's enqueue.cc "
    "addP2pToPlan): "
    "a peer's chunk larger than the receiver's step gives wrong data or a hang (NVIDIA/nccl #2408, PR #2410)";
inline constexpr std::string_view kP2pProtocolDisagrees =
    "each rank picks LL or Simple for each send and receive by its own threshold (NCCL's enqueue.cc "
    "addP2pToPlan): a sender on LL and a receiver on Simple wait for each other";
inline constexpr std::string_view kLlBuffersDisagree =
    "each side of a network connection allocates LL buffers by its own setting (NCCL's transport/net.cc), "
    "and "
    "uses LL only where its own connection has them (enqueue.cc): one end on LL, the other on Simple";
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
    MustAgree{"NCCL_LL_BUFFSIZE", kSizesDisagree},
    MustAgree{"NCCL_LL128_BUFFSIZE", kSizesDisagree},
    MustAgree{"NCCL_P2P_NET_CHUNKSIZE", kStepsDisagree},
    MustAgree{"NCCL_P2P_PCI_CHUNKSIZE", kStepsDisagree},
    MustAgree{"NCCL_P2P_NVL_CHUNKSIZE", kStepsDisagree},
    MustAgree{"NCCL_CHUNK_SIZE", kChunkDisagrees},
    MustAgree{"NCCL_P2P_LL_THRESHOLD", kP2pProtocolDisagrees},
    MustAgree{"NCCL_ALLOC_P2P_NET_LL_BUFFERS", kLlBuffersDisagree},
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
