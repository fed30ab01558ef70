#include "analyse/host_judgement.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analyse/judge.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "analyse/verdict/verdict_contract.hpp"

namespace fb {
namespace {

// One host's section as a document of its own: what that host said of itself.
Result section_alone(const Result& job, const HostSection& s) {
  Result alone;
  alone.status = RunStatus::complete;
  alone.host = s.host;
  alone.env = s.env;
  alone.gpus = s.gpus;
  alone.topology = s.topology;
  alone.expectations = job.expectations;
  alone.nodes = job.nodes;  // so that the section's verdict lists its nodes check
  return alone;
}

std::size_t job_gpu_count(const Result& job) {
  std::size_t in_sections = 0;
  for (const auto& s : job.hosts) in_sections += s.gpus.size();
  return std::max(job.gpus.size(), in_sections);
}

void judge_section(const Result& job, HostSection& s, const JudgeContext& host_context) {
  const Result alone = section_alone(job, s);
  s.findings = run_rules(alone, host_context);
  for (auto& f : s.findings) f.host = s.name;
  // What the job found about this host (the pairs of hosts naming it slow, its GPUs named).
  std::copy_if(job.findings.begin(), job.findings.end(), std::back_inserter(s.findings),
               [&](const Finding& f) { return f.host == s.name; });
  s.verdict = verdict_of(alone, s.findings);
}

// The codes a host's checks at `status` cite, each once, in the order cited.
std::vector<std::string> codes_at(const Verdict& v, CheckStatus status) {
  std::vector<std::string> codes;
  for (const auto& check : v.checks)
    for (const auto& code : check.codes)
      if (check.status == status && std::find(codes.begin(), codes.end(), code) == codes.end())
        codes.push_back(code);
  return codes;
}

// The job's "hosts" check: the worst section, each host at that status named with its codes.
void fold_host_verdicts(Result& job) {
  if (job.hosts.empty() || !job.verdict) return;
  CheckVerdict c;
  c.check = "hosts";
  for (const auto& s : job.hosts)
    if (s.verdict) {
      c.status = std::max(c.status, s.verdict->status);
      c.action = std::max(c.action, s.verdict->action);
    }
  std::vector<std::string> named;
  for (const auto& s : job.hosts) {
    if (!s.verdict || s.verdict->status != c.status || c.status == CheckStatus::pass) continue;
    const auto codes = codes_at(*s.verdict, c.status);
    for (const auto& code : codes)
      if (std::find(c.codes.begin(), c.codes.end(), code) == c.codes.end()) c.codes.push_back(code);
    named.push_back(codes.empty() ? s.name : fmt::format("{} ({})", s.name, fmt::join(codes, ", ")));
  }
  c.evidence = named.empty() ? fmt::format("{} hosts, each PASS on its own", job.hosts.size())
                             : fmt::format("{} of {} hosts at {}: {}", named.size(), job.hosts.size(),
                                           c.status, fmt::join(named, "; "));
  job.verdict->status = std::max(job.verdict->status, c.status);
  job.verdict->action = std::max(job.verdict->action, c.action);
  job.verdict->checks.push_back(std::move(c));
}

// The hosts a job's metrics are written for: those its GPUs sit on, else its one host.
std::vector<std::string> metric_hosts(const Result& r) {
  auto hosts = result_host_names(r);
  if (hosts.size() >= 2) return hosts;
  return {r.host.hostname};
}

}  // namespace

void name_finding_hosts(Result& job) {
  const auto hosts = result_host_names(job);
  if (hosts.size() < 2) return;
  for (auto& f : job.findings)
    if (f.host.empty()) f.host = host_named(f.evidence, hosts);
}

void judge_host_sections(Result& job, const JudgeContext& job_context) {
  JudgeContext host_context = job_context;
  host_context.scope = JudgeScope::host_of_job;
  host_context.job_gpus = job_gpu_count(job);
  host_context.job_hosts = job.hosts.size();
  host_context.nodes_ranking = nullptr;
  for (auto& s : job.hosts) {
    // A section without the host's facts (written by hand, or by a build that did not record them)
    // cannot be judged again: its own findings and verdict stand as written.
    if (!s.host.config && s.verdict) continue;
    judge_section(job, s, host_context);
  }
  fold_host_verdicts(job);
}

std::vector<Finding> host_findings(const Result& r, const std::string& host) {
  if (metric_hosts(r).size() < 2) return r.findings;
  std::vector<Finding> mine;
  std::copy_if(r.findings.begin(), r.findings.end(), std::back_inserter(mine),
               [&](const Finding& f) { return f.host.empty() || f.host == host; });
  for (const auto& section : r.hosts)
    if (section.name == host)
      for (const auto& f : section.findings)
        if (std::find_if(mine.begin(), mine.end(), [&](const Finding& m) {
              return m.code == f.code && m.evidence == f.evidence;
            }) == mine.end())
          mine.push_back(f);
  return mine;
}

Verdict host_verdict(const Result& r, const std::string& host) {
  if (metric_hosts(r).size() < 2) return r.verdict ? *r.verdict : verdict_of(r, r.findings);
  return verdict_of(r, host_findings(r, host));
}

}  // namespace fb
