#pragma once
// A collective point across hosts held against its network (issue 42), where no expectation row holds
// (a site's baseline, GB200 NVL72's): computed from the hosts' IB/RoCE ports
// (analyse/expect/network_bound.hpp) by the algorithm that ran and the collective's traffic
// (docs/verdicts.md, "Across hosts"):
//   ring (all_reduce, all_gather, reduce_scatter, broadcast, reduce): busbw = the weakest host's sum of
//     its ports' figures (a ring crosses every host's NICs once per channel, whatever the host count)
//   alltoall: min over hosts of ports x (n-1) / (g x (n-g)) (n GPUs, g on the host: the share that
//     leaves the host through its ports, NVIDIA's model)
//   sendrecv: the weakest port at a host boundary of the ring of ranks (one GPU sends across each)
//   NVLSTree: the one published configuration (2 hosts of 8 x H100/H200 over 8 x 400G); Tree,
//     CollNet (SHARP), PAT and NVLSTree elsewhere: no figure, said (their busbw is not a ring's)
// An algorithm not in NCCL's log is held against a ring's bound, and said.
#include <cstdint>
#include <optional>
#include <string>

#include "analyse/expect/what_ran.hpp"
#include "model/result.hpp"

namespace fb {

struct CrossHostFigure {
  double value = 0;         // expected busbw, GB/s; 0: none, and `unknown` says why
  std::string source;       // the formula in words, the weakest host named, the per-port figures' sources
  std::string unknown;      // "sockets have no rate: ...", "no published figure for Tree across hosts ..."
  double ring_bound = 0;    // the ring's bound for this collective (0: unknown): labels an algorithm above it
  std::string ring_source;  // its words
  // The hosts' NICs were not described: `value` is the low end of the GPU class's datacenter range, a
  // floor a healthy fabric clears, not what these hosts' NICs carry (a projection takes no bound from it).
  bool from_class_range = false;
};

// The same for every size: the bound is what the largest sizes reach (small sizes fall short by latency).
CrossHostFigure cross_host_figure(const Result& r, const Run& run, const WhatRan& w);

// The smallest size the NIC figures judge: 1 GiB, as the published figures; for ring collectives and
// NVLSTree at least 64 MiB a GPU (the published 2-host figures' share: 1 GiB over 16 GPUs), since each
// of a ring's 2(n-1) steps pays the network's latency.
std::uint64_t nic_figure_from_bytes(const Run& run);

// An algorithm that is not a ring (NVLSTree, Tree, CollNet) with no figure of its own, above the ring's
// NIC bound: its busbw (a ring's formula) is not what crossed the NICs. The ring's bound and its words
// then; nullopt otherwise (a ring's figure, or one below the bound, is judged).
struct NicSum {
  double value = 0;
  std::string source;
};
std::optional<NicSum> above_nic_sum(const Result& r, const Run& run, const Point& p, const WhatRan& w);

}  // namespace fb
