#include "report/judgement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "analyse/expected_figure.hpp"
#include "analyse/verdicts.hpp"

namespace fb {
namespace {

// Below half its expectation a fabric is not "usable with issues": it is far from what it should do.
constexpr double kFarBelow = 0.5;

bool same_findings(const std::vector<Finding>& a, const std::vector<Finding>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Finding& x, const Finding& y) {
    return std::tie(x.code, x.severity, x.evidence) == std::tie(y.code, y.severity, y.evidence);
  });
}

// "all_reduce 4 GiB at 15% of its expected 314.7 GB/s" (latency: both figures, lower is better).
std::string distance(const Shortfall& s) {
  if (s.unit == "ns")
    return fmt::format("{}: {:.0f} ns against an expected {:.0f} ns", s.figure, s.measured, s.expected);
  return fmt::format("{} at {:.0f}% of its expected {:.1f} {}", s.figure, s.measured / s.expected * 100,
                     s.expected, s.unit);
}

bool any_of_severity(const Result& r, Severity s) {
  return std::any_of(r.findings.begin(), r.findings.end(), [s](const Finding& f) { return f.severity == s; });
}

}  // namespace

std::optional<SavedFindings> saved_apart(const SavedFindings& saved, const Result& judged) {
  if (saved.findings.empty() || saved.rules_version == judged.rules_version) return std::nullopt;
  if (same_findings(saved.findings, judged.findings)) return std::nullopt;
  return saved;
}

std::string rules_words(const std::string& rules_version) {
  return rules_version.empty() ? "rules of a build that did not record their version" : rules_version;
}

std::string judged_by_line(const Result& judged, const std::optional<SavedFindings>& saved) {
  std::string line =
      fmt::format("Judged by {} (this build) when this report was made.", rules_words(judged.rules_version));
  if (saved)
    line +=
        fmt::format(" The file's own {} finding{}, written by {}, {} listed apart.", saved->findings.size(),
                    saved->findings.size() == 1 ? "" : "s", rules_words(saved->rules_version),
                    saved->findings.size() == 1 ? "differs and is" : "differ and are");
  return line;
}

Outcome report_outcome(const Result& r) {
  if (r.status == RunStatus::failed) return {"failed", "The run failed"};
  if (r.status == RunStatus::refused)
    return {"refused",
            "Refused: the hosts of this job disagree on what NCCL needs alike on every rank; fix the job's "
            "configuration (nothing was measured)"};
  if (r.status == RunStatus::running) return {"running", "In progress: partial results"};
  const Shortfall worst = worst_shortfall(r);
  const bool far = worst.share > 0 && worst.share < kFarBelow;
  if (has_error_finding(r.findings))
    return {"errors",
            "Errors: not fit for use as measured" + (worst.below_floor ? "; " + distance(worst) : "")};
  if (any_of_severity(r, Severity::warning) || worst.below_floor) {
    if (far) return {"warnings", "Warnings: far below what this machine should reach; " + distance(worst)};
    if (worst.below_floor) return {"warnings", "Warnings: below expectation; " + distance(worst)};
    return {"warnings", "Warnings: the figures meet their expectations; issues to look at below"};
  }
  if (worst.share > 0) return {"healthy", "Healthy: no problem found; the lowest figure: " + distance(worst)};
  return {"healthy",
          "Healthy: no problem found; no expected figure for this machine, held against its path "
          "ceilings and peers only"};
}

}  // namespace fb
