#pragma once
// Which part limits a job across hosts (the doctor under mpirun, torchrun or srun): from what NCCL
// used between the hosts (the runs' transports and NICs) and what the hosts have (their sections'
// GPU links and NICs; the host whose IB/RoCE ports bound a ring, analyse/expect/network_bound.hpp), one
// sentence for the report. Empty for a document of one host.
#include <string>

#include "model/result.hpp"

namespace fb {

std::string cluster_limit(const Result& r);

// Which host is slow, from the pairs of hosts (`nodes`, the doctor's nodes stage): "fbhost2 (3 pairs
// at 0.11-0.12 GB/s) is slow, against the reference 0.90 GB/s (slow below 0.72)", "no host is slow: 6 pairs
// of 4 hosts at 0.88-0.91 GB/s"; with 2 hosts why one pair cannot tell; with 3 or more and no pairs
// measured, that they were not. Empty for a document of one host.
std::string slow_host_words(const Result& r);

}  // namespace fb
