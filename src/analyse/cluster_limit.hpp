#pragma once
// Which part limits a job across hosts (the doctor under mpirun, torchrun or srun): from what NCCL
// used between the hosts (the runs' transports and NICs) and what the hosts have (their sections'
// GPU links and NICs; the host whose IB/RoCE ports bound a ring, analyse/network_bound.hpp), one
// sentence for the report. Empty for a document of one host.
#include <string>

#include "model/result.hpp"

namespace fb {

std::string cluster_limit(const Result& r);

}  // namespace fb
