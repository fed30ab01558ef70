#pragma once
// Turns a request (request/collective_request.hpp) and the machine's facts into the immutable Plan, with the
// checks that need the machine: GPU ids, the ranks of an outside job, data type support, fit in memory. The
// request's own syntax was checked where it was built.
#include <vector>

#include "bench/plan.hpp"
#include "engine/machine/machine_facts.hpp"
#include "model/topology.hpp"
#include "request/command_requests.hpp"

namespace fb {

// The device ordinals a selection names, checked against the `available` GPUs.
std::vector<int> resolve_gpus(const GpuSelection& selection, int available);

// In an outside job: rank r drives the job_local_ranks[r]-th of the GPUs selected on its host.
std::vector<int> gpus_of_job_ranks(const RunRequest& request, const std::vector<int>& selected,
                                   const MachineFacts& machine);

Plan build_plan(const RunRequest& request, const MachineFacts& machine);

// The p2p plan on the selected GPUs, host buffers on each GPU's local CPUs (from `topology`).
P2pPlan build_p2p_plan(const P2pRequest& request, int available, const Topology& topology);

// The largest power-of-two size (1 MiB .. 8 GiB) whose buffers, twice the size plus NCCL's
// share and 2 GiB to spare, fit every one of `gpus`.
std::uint64_t largest_fitting_size(const MachineFacts& machine, const std::vector<int>& gpus);

}  // namespace fb
