#pragma once
// The verdict contract (docs/verdicts.md, "The verdict contract"): the findings of analyse_result()
// sorted into checks, each with one status (PASS, INFO, UNKNOWN, WARNING, CRITICAL) and a
// recommended action (none, investigate, fix_configuration, drain); the document's verdict is the worst
// check. error -> CRITICAL (drain; host_consistency: fix_configuration, a job's settings are not its hosts'
// fault), warning -> WARNING (investigate), info -> INFO (none); a check that
// ran clean is PASS; one that could not run (its input missing, or no expectation for the machine)
// is UNKNOWN (none). A check that does not apply to the document (scaling without scale runs) is
// not listed.
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace fb {

struct CheckRule {
  std::string_view check;
  std::string_view codes;  // the finding codes it owns: prefixes ending in '_' or whole codes, ", "-separated
  std::string_view what;   // what it judges (docs/verdicts.md)
  bool (*applies)(const Result&);
  std::string_view (*cannot)(const Result&);  // why it could not run; "" when it could
  CheckAction critical = CheckAction::drain;  // its action when CRITICAL
  std::string_view remedy;                    // the flag or file that lets it run where it could not
};

// The remedy of a check by name ("--nccl-log FILE"); "" when it has none.
std::string_view check_remedy(std::string_view check);

// The action of a check of `status` whose CRITICAL action is `critical`.
CheckAction action_for(CheckStatus s, CheckAction critical = CheckAction::drain);

Verdict verdict_of(const Result& r, const std::vector<Finding>& findings);

}  // namespace fb
