#pragma once
// The document's hosts (a job across hosts: the doctor under mpirun, torchrun or srun) as Markdown:
// one row per host (its ranks, GPUs, NCCL, driver, NICs, NET plugin, verdict and action), then each
// host's own findings. Empty for a document of one host.
#include <string>

#include "model/result.hpp"

namespace fb {

std::string hosts_markdown(const Result& r);

}  // namespace fb
