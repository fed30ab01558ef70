#pragma once
// What a report says about a document as a whole, the same on every page, besides its outcome
// (analyse/verdict/outcome.hpp): which rules judged it, and the document's own findings where other
// rules wrote them.
#include <optional>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

// The findings a document carried when it was read, and the rules that wrote them.
struct SavedFindings {
  std::string rules_version;  // "" when the document does not say (written before 1.2)
  std::vector<Finding> findings;
};

// The document's own findings when they differ from those the current rules gave `judged` and
// other (or unrecorded) rules wrote them; nullopt when there is nothing to show apart.
std::optional<SavedFindings> saved_apart(const SavedFindings& saved, const Result& judged);

// "judged by fabricbench.rules/2026-12-04 when this report was made" and, with saved findings apart,
// what wrote those.
std::string judged_by_line(const Result& judged, const std::optional<SavedFindings>& saved);

// The saved findings' rules in words: the version, or that the document did not record it.
std::string rules_words(const std::string& rules_version);

}  // namespace fb
