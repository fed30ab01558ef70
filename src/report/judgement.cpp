#include "report/judgement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace fb {
namespace {

bool same_findings(const std::vector<Finding>& a, const std::vector<Finding>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Finding& x, const Finding& y) {
    return std::tie(x.code, x.severity, x.evidence) == std::tie(y.code, y.severity, y.evidence);
  });
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

}  // namespace fb
