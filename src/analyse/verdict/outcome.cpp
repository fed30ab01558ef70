#include "analyse/verdict/outcome.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analyse/verdict/headline_figures.hpp"
#include "analyse/verdict/headline_words.hpp"

namespace fb {
namespace {

// Below half its expectation a fabric is not "usable with issues": it is far from what it should do.
constexpr double kFarBelow = 0.5;

bool any_of_severity(const Result& r, Severity s) {
  return std::any_of(r.findings.begin(), r.findings.end(), [s](const Finding& f) { return f.severity == s; });
}

}  // namespace

Outcome headline_outcome(const Result& r) {
  if (r.status == RunStatus::failed) return {"failed", "The run failed"};
  if (r.status == RunStatus::refused)
    return {"refused",
            "Refused: the hosts of this job disagree on what NCCL needs alike on every rank; fix the job's "
            "configuration (nothing was measured)"};
  if (r.status == RunStatus::running) return {"running", "In progress: partial results"};
  const auto figures = headline_figures(r);
  const auto worst = worst_shortfall(figures);
  const bool below = worst && worst->below_floor;
  const bool far = worst && worst->share < kFarBelow;
  const auto sentence = worst ? figure_sentence(worst->figure) : std::string();
  if (has_error_finding(r.findings))
    return {"errors", below ? fmt::format("Errors: not fit for use as measured; {}", sentence)
                            : std::string("Errors: not fit for use as measured")};
  if (any_of_severity(r, Severity::warning) || below) {
    if (far)
      return {"warnings", fmt::format("Warnings: far below what this machine should reach; {}", sentence)};
    if (below)
      return {"warnings",
              fmt::format("Warnings: {}; {}",
                          worst->from_table() ? "below expectation" : "below what healthy rings reach",
                          sentence)};
    return {"warnings", fmt::format("Warnings: {}; issues to look at below", expectations_standing(figures))};
  }
  if (worst) return {"healthy", fmt::format("Healthy: no problem found; the lowest figure: {}", sentence)};
  return {"healthy",
          "Healthy: no problem found; no expected figure for this machine, held against its path "
          "ceilings and peers only"};
}

}  // namespace fb
