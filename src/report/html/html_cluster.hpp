#pragma once
// A result whose GPUs sit on 2 or more hosts (a job under mpirun, torchrun or srun) drawn as hosts:
// one card per host with its GPUs (host:index, model, rank) and, where the doctor judged each host,
// its verdict and action. A document's topology is one host's, so its drawing would show one GPU.
#include <string>

#include "model/result.hpp"

namespace fb {

// "fabricbench report: 16 hosts node[01-16]" across hosts (a Slurm hostlist); "fabricbench report:
// HOST" on one.
std::string report_title(const Result& r);

// The hosts and their GPUs (HTML); "" on one host.
std::string cluster_html(const Result& r);

}  // namespace fb
