#pragma once
// The document's hosts (a job across hosts: the doctor under mpirun, torchrun or srun) as Markdown:
// one row per host (its ranks, GPUs, NCCL, driver, NICs, NET plugin, verdict and action), then each
// host's own findings. Empty for a document of one host.
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

std::string hosts_markdown(const Result& r);

// One host's row, cell by cell (host, ranks, GPUs, library version, driver, NICs up, NET plugin,
// verdict and action), and the cluster's line: what the Markdown and the HTML report both show.
std::vector<std::string> host_row_cells(const HostSection& s);
std::string cluster_line(const Result& r);

}  // namespace fb
