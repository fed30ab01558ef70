#pragma once
#include <string>
#include <vector>

#include "cli/algos_cli.hpp"
#include "cli/run_plan_builder.hpp"
#include "core/result.hpp"
#include "topo/placement.hpp"

namespace fb {

int algos_command(const AlgosOptions& options, const std::vector<std::string>& command_line);
int scale_command(const ScaleOptions& options, const std::vector<std::string>& command_line);

// One scale measurement: the collective of `m` (one size) on `count` GPUs placed by `placement`.
Run run_scale_point(const RunOptions& m, const MachineFacts& facts, const Topology& topo, int count,
                    Placement placement, Point* point, std::string* failure);

}  // namespace fb
