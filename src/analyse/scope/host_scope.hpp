#pragma once
// What the host rules (analyse/host/host_checks.hpp) share: which GPUs a document's run used, their
// facts, their names in messages, and how a fact is cited.
#include <cstdint>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

struct HostScope {
  const HostFacts* facts = nullptr;  // null: the document carries no host facts
  std::vector<std::string> bus_ids;  // the run's GPUs, normalized
  bool machine_wide = false;         // the document names no GPUs: every GPU of the machine
};

HostScope host_scope(const Result& r);

// The facts of one GPU of the scope; nullptr when none were read.
const GpuHostFacts* gpu_facts(const HostScope& scope, const std::string& bus_id);

// "GPU 1 (0000:19:00.0)" where the topology knows the index, else the bus id.
std::string gpu_label(const Result& r, const std::string& bus_id);

// A fact's value as a whole number (decimal; hexadecimal, "0x" or not, when `base` is 16); 0 when
// it is unknown, negative or not a number.
std::uint64_t number_or_zero(const HostFact& f, int base = 10);

// "1 (/proc/sys/kernel/numa_balancing)".
std::string cite(const HostFact& f);

// Whether NCCL connected some run's GPUs through host memory or the network.
bool nccl_fell_back(const Result& r);

}  // namespace fb
