#include "analyse/host_verdicts.hpp"

#include <algorithm>
#include <iterator>

#include "analyse/verdict_contract.hpp"
#include "analyse/verdicts.hpp"

namespace fb {

void judge_host_sections(Result& result) {
  for (auto& s : result.hosts) {
    Result alone;
    alone.status = RunStatus::complete;
    alone.host = s.host;
    alone.env = s.env;
    alone.gpus = s.gpus;
    alone.topology = s.topology;
    alone.expectations = result.expectations;
    judge_result(alone);
    s.findings.clear();
    std::copy_if(alone.findings.begin(), alone.findings.end(), std::back_inserter(s.findings),
                 [](const Finding& f) { return f.code != "ONE_GPU"; });
    // The pairs of hosts name this host slow: its section says so, with its pair figures.
    std::copy_if(
        result.findings.begin(), result.findings.end(), std::back_inserter(s.findings),
        [&](const Finding& f) { return f.code == "NODE_SLOW" && f.evidence.starts_with(s.name + ":"); });
    if (result.nodes) alone.nodes = result.nodes;  // so that the section's verdict lists its nodes check
    s.verdict = verdict_of(alone, s.findings);
  }
}

}  // namespace fb
