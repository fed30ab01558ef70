#pragma once
// What a command will take, said before it starts (the first line of `run`, `algos`, `p2p` and
// the doctor), from what the topology promises and the sampler's own cost model
// (bench/sampler.hpp: point_seconds). Measured figures replace these priors as soon as there are
// any (the progress line, the doctor's budget). Pure functions, unit-tested on hand-made machines.
#include <map>
#include <string>
#include <vector>

#include "bench/p2p_plan.hpp"
#include "bench/plan.hpp"
#include "engine/pricing/doctor_budget.hpp"
#include "model/topology.hpp"

namespace fb {

// The speed to expect before anything is measured, on `gpus` of `t` with the NCCL settings `env`
// (the process's NCCL_* variables and the plan's): one GPU copies within its memory (1000 GB/s,
// half what an H200 reaches); several reach 85% of their ring's SM ceiling (analyse/ceilings),
// 10 GB/s where the ceiling is unknown, and the degraded transports' speeds of shared/REFERENCE.md
// where NCCL_P2P_DISABLE (shared memory, 25 GB/s) and NCCL_SHM_DISABLE as well (sockets, 2 GB/s)
// are set. A set of workers costs 0.35 s plus 0.35 s per GPU (0.7 s on 1 H200, 1.0-1.2 s on 2).
FabricSpeed prior_speed(const Topology& t, const std::vector<int>& gpus,
                        const std::map<std::string, std::string>& env);

// Under a job of `ranks` ranks across hosts, before the network is measured (the doctor's network
// stage measures it first): a host's own links say nothing of it, so 10 GB/s busbw (the order of one
// 100G port), 2 GB/s where NCCL is told to use sockets (NCCL_NET=Socket, NCCL_IB_DISABLE=1); 50 us a
// small operation; a set of workers 1 s plus 0.1 s per rank (NCCL's set-up over the network).
FabricSpeed job_prior_speed(int ranks, const std::map<std::string, std::string>& env);

// The NCCL settings a plan's workers run with: the process's NCCL_* variables, the plan's on top.
std::map<std::string, std::string> nccl_settings(const Plan& plan);

// `speed` for a set of workers that starts after another's: it waits for that one's exit.
FabricSpeed after_other_workers(FabricSpeed speed);

// One set of workers and every point of `plan` at `speed` (each collective's bus bytes at its
// busbw; on one GPU every byte at the local copy rate).
double estimate_plan_s(const Plan& plan, const FabricSpeed& speed);

// Every test of `plan` on `t`: each copy at its path's ceiling, host-side fills and checks, the
// pointer chases, and the GPUs' set-up.
double estimate_p2p_s(const P2pPlan& plan, const Topology& t);

}  // namespace fb
