#include "analyse/hosts/host_verdicts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>

#include "analyse/verdict_contract.hpp"
#include "analyse/verdicts.hpp"

namespace fb {

void judge_host_sections(Result& result) {
  for (auto& s : result.hosts) {
    // A section without the host's facts (written by hand, or by a build that did not record them)
    // cannot be judged again: its own findings and verdict stand as written.
    if (!s.host.config && s.verdict) continue;
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

void fold_host_verdicts(Result& result) {
  if (result.hosts.empty() || !result.verdict) return;
  CheckVerdict c;
  c.check = "hosts";
  for (const auto& s : result.hosts)
    if (s.verdict) {
      c.status = std::max(c.status, s.verdict->status);
      c.action = std::max(c.action, s.verdict->action);
    }
  std::vector<std::string> named;
  for (const auto& s : result.hosts) {
    if (!s.verdict || s.verdict->status != c.status || c.status == CheckStatus::pass) continue;
    std::vector<std::string> codes;
    for (const auto& check : s.verdict->checks)
      if (check.status == c.status) codes.insert(codes.end(), check.codes.begin(), check.codes.end());
    for (const auto& code : codes)
      if (std::find(c.codes.begin(), c.codes.end(), code) == c.codes.end()) c.codes.push_back(code);
    named.push_back(codes.empty() ? s.name : fmt::format("{} ({})", s.name, fmt::join(codes, ", ")));
  }
  c.evidence = named.empty() ? fmt::format("{} hosts, each PASS on its own", result.hosts.size())
                             : fmt::format("{} of {} hosts at {}: {}", named.size(), result.hosts.size(),
                                           c.status, fmt::join(named, "; "));
  result.verdict->status = std::max(result.verdict->status, c.status);
  result.verdict->action = std::max(result.verdict->action, c.action);
  result.verdict->checks.push_back(std::move(c));
}

}  // namespace fb
