#pragma once
// The measurements behind `fabricbench scale` (and doctor's scaling stage): one collective at
// one size on growing groups of GPUs, each group chosen from the topology by placement.
#include <functional>
#include <string>
#include <vector>

#include "engine/machine/machine_facts.hpp"
#include "engine/plans/sweep_progress.hpp"
#include "model/result.hpp"
#include "request/command_requests.hpp"
#include "topo/placement.hpp"

namespace fb {

// The group sizes to measure: `requested`, or 1, 2, 4, ... and every GPU when it is empty.
// Throws a usage error for a count beyond the `available` GPUs.
std::vector<int> scale_counts(const std::vector<int>& requested, int available);

// One group: the collective of `one_size` on `count` GPUs placed by `placement`, as a run of
// kind "scale" labelled with the placement; a failed group has no point and says why. The group
// is announced through `progress` as run `index` of the sweep (engine/plans/sweep_progress.hpp).
Run run_scale_point(const RunRequest& one_size, const MachineFacts& facts, const Topology& topo, int count,
                    Placement placement, SweepProgress& progress, std::size_t index, EventSink& events);

// Every count for each placement requested (best first); `on_run` sees each run as it ends.
// After Ctrl-C (core/interrupt.hpp) no further group starts: the runs so far are returned. Each
// group is announced to `events`, which hears the workers' warnings too.
std::vector<Run> run_scaling(const ScaleRequest& request, const MachineFacts& facts, const Topology& topo,
                             const std::function<void(const Run&)>& on_run, EventSink& events);

}  // namespace fb
