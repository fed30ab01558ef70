#pragma once
// The doctor's stages that exist only under a job across hosts (mpirun, torchrun, srun), issue 40:
//   preflight  every host describes itself and the hosts are compared before any collective; a job
//              whose hosts disagree on what NCCL needs alike is refused (engine/job_preflight)
//   network    one all_reduce over the network at two sizes: the measured speed and cost of a set of
//              workers that the later stages are estimated from and cut to fit the budget (a host's
//              own links say nothing of the network between hosts)
// (the nodes stage, pairs of hosts before the sweeps: engine/doctor/doctor_nodes_stage)
#include <cstdint>

#include "engine/doctor/doctor_stages.hpp"

namespace fb {

DoctorStage preflight_stage();
DoctorStage network_probe_stage();

// Under a job of 2 ranks or more, measuring (not a prolog or a passive check): the network between the
// hosts is measured.
bool measures_network(const DoctorContext& ctx);

// Under a job: the collectives stage's sizes cut, from the largest, until its estimate at the
// network's measured speed fits the budget the nodes stage left (the cuts said).
StagePlan plan_job_collectives(const DoctorContext& ctx);
// The sweep at its least (the smallest size alone), at the measured speed or the prior.
double least_job_collectives_s(const DoctorContext& ctx);
// As that plan would cut it at the prior speed.
double prior_job_collectives_s(const DoctorContext& ctx);

// Describing a host reads its sysfs, NVML and NCCL's library: about 0.1 s, the hosts at once.
inline constexpr double kPreflightPriorS = 0.5;

}  // namespace fb
