#pragma once
// The doctor's stages that exist only under a job across hosts (mpirun, torchrun, srun), issue 40:
//   preflight  every host describes itself and the hosts are compared before any collective; a job
//              whose hosts disagree on what NCCL needs alike is refused (engine/job_preflight)
//   network    one all_reduce over the network at two sizes: the measured speed and cost of a set of
//              workers that the later stages are estimated from and cut to fit the budget (a host's
//              own links say nothing of the network between hosts)
//   nodes      with 3 hosts or more, `fabricbench nodes`' round robin of pairs of hosts: the slow host
//              named, with its pair figures (engine/nodes_rounds)
#include <cstdint>

#include "engine/doctor/doctor_stages.hpp"

namespace fb {

DoctorStage preflight_stage();
DoctorStage network_probe_stage();
DoctorStage nodes_stage();

// Under a job: the collectives stage's sizes cut, from the largest, until its estimate at the
// network's measured speed fits its share of the budget left (the cuts said).
StagePlan plan_job_collectives(const DoctorContext& ctx);
// As that plan would cut it at the prior speed.
double prior_job_collectives_s(const DoctorContext& ctx);

// Describing a host reads its sysfs, NVML and NCCL's library: about 0.1 s, the hosts at once.
inline constexpr double kPreflightPriorS = 0.5;

// The share of the budget left that the collectives stage may use where the nodes stage follows.
inline constexpr double kCollectivesShareBeforeNodes = 0.5;
// The nodes stage's message size and window per round, and the least window it may be cut to.
inline constexpr std::uint64_t kDoctorPairBytes = 16ULL << 20;
inline constexpr double kDoctorPairWindowS = 0.5;
inline constexpr double kDoctorPairMinWindowS = 0.2;

}  // namespace fb
