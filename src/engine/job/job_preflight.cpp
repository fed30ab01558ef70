#include "engine/job/job_preflight.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyse/hosts/host_consistency.hpp"
#include "core/error.hpp"
#include "engine/job/host_sections.hpp"

namespace fb {
namespace {

// "the hosts of this torchrun job disagree on what NCCL needs alike on every rank: NCCL_PROTO differs
// between hosts: not set on fbhost0; LL on fbhost1. Fix the job's configuration ..."
std::string refusal_text(const std::string& launcher, const std::vector<const Finding*>& errors) {
  std::vector<std::string> what;
  what.reserve(errors.size());
  for (const auto* f : errors) what.push_back(f->evidence);
  return fmt::format(
      "the hosts of this {} job disagree on what NCCL needs alike on every rank, so it was stopped before "
      "its first collective (it would hang or fail when the ranks connect): {}. Fix the job's configuration "
      "(the same NCCL and NCCL_* settings for every rank: mpirun -x, srun --export, the job script or pod "
      "spec), or give --allow-mismatch to run anyway",
      launcher, fmt::join(what, "; "));
}

}  // namespace

JobPreflight judge_preflight(std::vector<HostSection> hosts, const RunSettings& settings,
                             const std::string& launcher) {
  JobPreflight out;
  out.hosts = std::move(hosts);
  out.findings = compare_hosts(out.hosts);
  std::vector<const Finding*> errors;
  for (const auto& f : out.findings)
    if (f.severity == Severity::error) errors.push_back(&f);
  if (!errors.empty() && !settings.allow_mismatch) out.refusal = refusal_text(launcher, errors);
  return out;
}

JobPreflight preflight_job(JobSession& job, const RunSettings& settings, EventSink& events,
                           const std::vector<std::string>& command_line) {
  auto out = judge_preflight(gather_host_sections(job, settings.nccl_lib, command_line), settings,
                             job.launcher_command());
  for (const auto& f : out.findings) {
    if (f.severity == Severity::info || (f.severity == Severity::error && !out.refusal.empty())) continue;
    events.emit(
        make_event(EventKind::warning,
                   fmt::format("{}: {}{}", f.code, f.evidence,
                               f.severity == Severity::error ? " (running anyway: --allow-mismatch)" : "")));
  }
  return out;
}

std::vector<HostSection> require_agreeing_hosts(const RunSettings& settings, EventSink& events,
                                                const std::vector<std::string>& command_line) {
  JobSession* job = JobSession::current();
  if (job == nullptr) return {};
  auto preflight = preflight_job(*job, settings, events, command_line);
  if (!preflight.refusal.empty()) throw Error(ExitCode::usage, preflight.refusal);
  return std::move(preflight.hosts);
}

}  // namespace fb
