#pragma once
// GPUs whose NVLink spans trays (GB200 / GB300 NVL racks: one NVLink domain of up to 72 GPUs over
// 18 hosts): NCCL counts such a domain as one node (MNNVL) and joins its trays over NVLink, not over
// their NICs. A job on 2 trays of one rack is then one NVLink domain, held against NVLink's bound,
// never against one tray's ports.
#include <string>

#include "model/result.hpp"

namespace fb {

struct NvlinkDomain {
  bool one = false;  // the run's hosts are one NVLink domain
  std::string how;   // "assumed: NCCL's default on GB200 NVL (MNNVL) ..." or why not
};

// Whether the run, on 2 or more hosts, is one NVLink domain: GPUs of an NVL rack, no more than the
// domain holds, NCCL_MNNVL_ENABLE not 0, and NCCL's log naming no network between the hosts (where
// it is read: a NET transport or "Using network" means the hosts met over their NICs).
NvlinkDomain nvlink_domain(const Result& r, const Run& run);

// The hosts a run spans: the document's; where no GPU names its host (another tool's output without its
// "# Rank" lines), more GPUs than one host of that model holds (the GPU table) span
// ceil(GPUs / GPUs per host), the fewest that can hold them.
int inferred_hosts(const Result& r, const Run& run);

// The hosts a run spans as NCCL counts nodes: 1 for one NVLink domain, else inferred_hosts().
int nccl_hosts(const Result& r, const Run& run);

// The same for the document's first judged run (a document of one job shares one set-up).
int nccl_hosts(const Result& r);

}  // namespace fb
