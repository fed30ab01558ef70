#pragma once
// How findings and reports name a GPU. On one host a GPU is its index ("GPU3", a run's list "0,1");
// when the document's GPUs sit on 2 or more hosts every host has a GPU 0, so a GPU is host:index
// ("node-a:0"). Every view and rule that names a GPU of a run asks here.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace fb {

// The hosts the document's GPUs sit on, in the order of their ranks ("" hosts left out).
std::vector<std::string> result_host_names(const Result& r);

// Whether the document's GPUs sit on 2 or more hosts (a job under mpirun, torchrun or srun).
bool spans_hosts(const Result& r);

// A run's GPUs as a list: "0,1" on one host; across hosts as host ranges, "node[01-04]:0-7" or
// "node-a:0,node-b:0" (gpu_ranges), short at any size.
std::string run_gpu_list(const Result& r, const Run& run);

// GPUs given as (host, index) as host ranges, in order of first appearance: each host's indices as
// ranges ("0-3,6"), and the hosts with the same indices as one Slurm hostlist where their names fold
// ("node[01-04]:0-7"; "node-a:0", "node-b:0" where they do not).
std::vector<std::string> gpu_ranges(const std::vector<std::pair<std::string, int>>& gpus);

// Every GPU the document lists as host ranges across hosts ("node[01-04]:0-7"); "GPU0", "GPU1" on one.
std::vector<std::string> document_gpu_ranges(const Result& r);

// One GPU the document lists: "GPU0" on one host, "node-a:0" across hosts.
std::string document_gpu_name(const Result& r, const GpuInfo& g);

// Every GPU the document lists, by rank: "GPU0" on one host, "node-a:0" across hosts.
std::vector<std::string> document_gpu_names(const Result& r);

// The document's GPUs on `host`, named as above.
std::vector<std::string> host_gpu_names(const Result& r, const std::string& host);

// The one host of `hosts` whose GPUs `evidence` names as host:index (the name not part of a longer
// one); "" when it names none of them, or several.
std::string host_named(std::string_view evidence, const std::vector<std::string>& hosts);

// The name of the GPUs a run used (the first one's; "" when the document does not say).
std::string gpu_name(const Result& r, const std::vector<int>& gpus);
// The hosts the document's GPUs sit on (at least 1).
int result_hosts(const Result& r);

}  // namespace fb
