#pragma once
// The report's hosts section (a job across hosts: the doctor under mpirun, torchrun or srun): one row
// per host, the cluster's verdict and what limits it, each host's own findings. Empty on one host.
#include <string>

#include "model/result.hpp"

namespace fb {

std::string hosts_html(const Result& r);

}  // namespace fb
