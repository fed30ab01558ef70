#include "analyse/host/topology_judgement.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analyse/expect/gpu_hardware.hpp"
#include "analyse/scope/run_scope.hpp"
#include "topo/placement.hpp"

namespace fb {
namespace {

bool in(const std::vector<int>& gpus, int g) { return std::find(gpus.begin(), gpus.end(), g) != gpus.end(); }

// The models of the run's GPUs without peer access by design; empty when any GPU of the run has it.
std::vector<std::string> no_p2p_models(const Topology& t, const std::vector<int>& gpus) {
  std::vector<std::string> models;
  for (const auto& g : t.gpus) {
    if (!in(gpus, g.index)) continue;
    if (!no_p2p_by_design(g.name)) return {};
    if (std::find(models.begin(), models.end(), g.name) == models.end()) models.push_back(g.name);
  }
  return models;
}

Finding by_design(const std::vector<std::string>& models, const std::vector<Finding>& said) {
  std::vector<std::string> pairs;
  pairs.reserve(said.size());
  for (const auto& f : said) pairs.push_back(f.evidence.substr(f.evidence.find(": ") + 2));
  const auto* hw = gpu_hardware_of(models.front());
  return {"TOPO_NO_P2P", Severity::info,
          fmt::format("no peer-to-peer access, by design: {} ({}); pairs: {}", fmt::join(models, ", "),
                      hw != nullptr ? hw->source : "the GPU table", fmt::join(pairs, "; ")),
          "host memory (NCCL's SHM) between these GPUs: their own path, not a fault",
          "nothing to fix here: host memory is their path whatever the PCIe settings; where the job needs "
          "peer-to-peer, GPUs with NVLink or data-center parts give it"};
}

int weakest_rank(const Topology& t, const std::vector<int>& gpus) {
  int weakest = 5;
  for (const auto& p : t.pairs)
    if (in(gpus, p.a) && in(gpus, p.b)) weakest = std::min(weakest, connection_rank(p.connection));
  return weakest;
}

std::string weakest_class(const Topology& t, const std::vector<int>& gpus) {
  const TopoPair* weakest = nullptr;
  for (const auto& p : t.pairs)
    if (in(gpus, p.a) && in(gpus, p.b) &&
        (weakest == nullptr || connection_rank(p.connection) < connection_rank(weakest->connection)))
      weakest = &p;
  return weakest != nullptr ? weakest->connection.to_string() : "?";
}

// TOPO_HOST_PATH across sockets where `count` GPUs of the machine sit closer: a warning naming them.
void name_better_placement(const Result& r, std::vector<Finding>& findings) {
  const auto& t = *r.topology;
  const auto gpus = run_gpus(r);
  if (gpus.size() < 2 || gpus.size() >= t.gpus.size() || weakest_rank(t, gpus) != 0) return;
  std::vector<int> best;
  try {
    best = choose_gpus(t, static_cast<int>(gpus.size()), Placement::best);
  } catch (const std::exception&) {
    return;  // a topology whose GPUs are not numbered 0..n-1: no placement to offer
  }
  if (weakest_rank(t, best) <= 0) return;
  for (auto& f : findings) {
    if (f.code != "TOPO_HOST_PATH" || f.evidence.find("(SYS)") == std::string::npos) continue;
    f.severity = Severity::warning;
    f.evidence += fmt::format(
        "; the run's GPUs {} cross sockets where GPUs {} of this machine do not (their weakest pair {})",
        fmt::join(gpus, ","), fmt::join(best, ","), weakest_class(t, best));
    f.expected = fmt::format("the job on GPUs {} (CUDA_VISIBLE_DEVICES={})", fmt::join(best, ","),
                             fmt::join(best, ","));
    f.hint = fmt::format(
        "place the job on GPUs {}: their traffic stays off the inter-socket link (fabricbench scale "
        "--placement best measures both)",
        fmt::join(best, ","));
  }
}

}  // namespace

void judge_topology_findings(const Result& r, std::vector<Finding>& findings) {
  if (!r.topology) return;
  const auto models = no_p2p_models(*r.topology, run_gpus(r));
  if (!models.empty()) {
    std::vector<Finding> said;
    for (const auto& f : findings)
      if (f.code == "TOPO_NO_P2P") said.push_back(f);
    if (!said.empty()) {
      std::erase_if(findings, [](const Finding& f) { return f.code == "TOPO_NO_P2P"; });
      findings.push_back(by_design(models, said));
    }
  }
  name_better_placement(r, findings);
}

}  // namespace fb
