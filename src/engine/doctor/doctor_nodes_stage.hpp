#pragma once
// The doctor's nodes stage (issue 50: pairs before sweeps): under a job of 3 hosts or more (as many ranks
// on each), pairs of hosts as `fabricbench nodes` measures them, right after the network stage and before
// the collectives sweep, which takes what it leaves. The round robin while it fits the stage's time, else
// the search (a first pass, then the suspects re-paired with hosts known good: docs/nodes.md); its rounds
// are priced from their own measured cost, never from the cluster's all_reduce (which a slow host drags
// down), and the first round always runs: every host in one pair. Rounds that no longer fit are not run,
// and the verdict says which hosts were not judged (NODE_NOT_JUDGED).
#include <cstdint>

#include "bench/node_sampling.hpp"
#include "engine/doctor/doctor_stages.hpp"

namespace fb {

DoctorStage nodes_stage();

// The message size of a pair and the window every pair of a round measures for (the default, and the
// least it is cut to where the rounds would not fit otherwise).
inline constexpr std::uint64_t kDoctorPairBytes = 16ULL << 20;
inline constexpr double kDoctorPairWindowS = 0.5;
inline constexpr double kDoctorPairMinWindowS = 0.2;
// The collectives sweep keeps at most this share of the budget left for its least plan (one size): the
// hosts are judged first.
inline constexpr double kSweepReserveShare = 0.25;

// The search the doctor runs past the round robin: --quick 3 peers in one pass and 2 re-pairs (5 rounds),
// thorough `nodes`' own (6 and 4).
SamplingPlan doctor_sampling(bool quick);

// The stage's time: the budget left less what the sweep needs at its least (at most kSweepReserveShare).
double nodes_budget_s(const DoctorContext& ctx);

}  // namespace fb
