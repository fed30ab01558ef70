#include "analyse/verdict/outcome.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "analyse/verdict/headline_figures.hpp"
#include "analyse/verdict/headline_words.hpp"
#include "analyse/verdict/verdict_contract.hpp"

namespace fb {
namespace {

// Below half its expectation a fabric is not "usable with issues": it is far from what it should do.
constexpr double kFarBelow = 0.5;
// The codes a headline names: enough to say what kind of fault, short enough for one line.
constexpr std::size_t kCodesNamed = 3;

// The codes of the findings at `s`, each once, in the order found (the cause before its effects).
std::string codes_at(const Result& r, Severity s) {
  std::vector<std::string> codes;
  for (const auto& f : r.findings)
    if (f.severity == s && std::find(codes.begin(), codes.end(), f.code) == codes.end())
      codes.push_back(f.code);
  if (codes.size() > kCodesNamed) {
    const auto more = codes.size() - kCodesNamed;
    codes.resize(kCodesNamed);
    codes.push_back(fmt::format("{} more", more));
  }
  return fmt::format("{}", fmt::join(codes, ", "));
}

// What could not be judged and what would let it: each UNKNOWN check with its remedy (the flag or file),
// in the contract's order; the check's evidence says why in the verdict block.
std::string not_judged(const Verdict& v) {
  std::vector<std::string> parts;
  for (const auto& c : v.checks) {
    if (c.status != CheckStatus::unknown) continue;
    const auto remedy = check_remedy(c.check);
    parts.push_back(remedy.empty() ? c.check : fmt::format("{} ({})", c.check, remedy));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// What was held against something, in words: the figure furthest below its row or bound, else a passed
// check of the pairs or collectives that held figures against their path ceilings; `none` when nothing was.
std::string held_words(const Verdict& v, const std::optional<Shortfall>& worst, const std::string& none) {
  if (worst) return "; the lowest figure: " + figure_sentence(worst->figure);
  for (const auto& c : v.checks)
    if ((c.check == "pairs" || c.check == "collectives_ceiling") &&
        (c.status == CheckStatus::pass || c.status == CheckStatus::info) && !c.evidence.empty())
      return "; " + c.evidence;
  return none;
}

Outcome errors(const Result& r, const std::optional<Shortfall>& worst) {
  const auto codes = codes_at(r, Severity::error);
  return {"errors", worst ? fmt::format("Errors ({}): not fit for use as measured; {}", codes,
                                        figure_sentence(worst->figure))
                          : fmt::format("Errors ({}): not fit for use as measured", codes)};
}

Outcome warnings(const Result& r, const std::vector<HeadlineFigure>& figures,
                 const std::optional<Shortfall>& worst) {
  const auto codes = codes_at(r, Severity::warning);
  const bool below = worst && worst->below_floor;
  if (below && worst->share < kFarBelow)
    return {"warnings", fmt::format("Warnings ({}): far below what this machine should reach; {}", codes,
                                    figure_sentence(worst->figure))};
  if (below)
    return {"warnings", fmt::format("Warnings ({}): {}; {}", codes,
                                    worst->from_table() ? "below expectation"
                                                        : "below what the hardware gives a healthy run",
                                    figure_sentence(worst->figure))};
  return {"warnings",
          fmt::format("Warnings ({}): {}; issues to look at below", codes, expectations_standing(figures))};
}

}  // namespace

bool outcome_agrees(const std::string& key, CheckStatus status) {
  if (key == "failed" || key == "refused" || key == "running") return true;
  switch (status) {
    case CheckStatus::critical:
      return key == "errors";
    case CheckStatus::warning:
      return key == "warnings";
    case CheckStatus::unknown:
      return key == "incomplete";
    default:
      return key == "healthy" || key == "unmeasured";
  }
}

Outcome headline_outcome(const Result& r) {
  if (r.status == RunStatus::failed)
    return {"failed", r.failure.empty() ? "The run failed" : "The run failed: " + r.failure};
  if (r.status == RunStatus::refused)
    return {"refused",
            "Refused: the hosts of this job disagree on what NCCL needs alike on every rank; fix the job's "
            "configuration (nothing was measured)"};
  if (r.status == RunStatus::running) return {"running", "In progress: partial results"};
  const auto figures = headline_figures(r);
  const auto worst = worst_shortfall(figures);
  // A document not judged yet: the verdict its own findings give, never better than a figure below its floor.
  auto verdict = r.verdict ? *r.verdict : verdict_of(r, r.findings);
  if (!r.verdict && worst && worst->below_floor)
    verdict.status = std::max(verdict.status, CheckStatus::warning);
  switch (verdict.status) {
    case CheckStatus::critical:
      return errors(r, worst);
    case CheckStatus::warning:
      return warnings(r, figures, worst);
    case CheckStatus::unknown:
      return {"incomplete",
              fmt::format("Not judged in full: nothing wrong in what could be judged{}; not judged: {}",
                          held_words(verdict, worst, ", no figure held against an expectation or a bound"),
                          not_judged(verdict))};
    default:
      break;
  }
  if (const auto held = held_words(verdict, worst, ""); !held.empty())
    return {"healthy", "Healthy: no problem found" + held};
  return {
      "unmeasured",
      "No problem found in what was read; no figure was held against an expectation or a bound, so nothing "
      "says the interconnect is healthy"};
}

}  // namespace fb
