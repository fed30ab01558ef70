#pragma once
// The verdict contract (docs/verdicts.md, "The verdict contract"): every check of a judged document
// yields one status and a recommended action, and the document's verdict is the worst of them.
// The findings stay as they are; this is what a tool reads instead of parsing them.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/enum_names.hpp"

namespace fb {

// Ordered from best to worst: the run's status is the largest of its checks'.
enum class CheckStatus { pass, info, unknown, warning, critical };

// Ordered by urgency: the verdict's action is the largest of its checks'. fix_configuration: the job's
// own settings are wrong (its hosts disagree on what NCCL needs alike), not its hosts: never drain them.
enum class CheckAction { none, investigate, fix_configuration, drain };

struct CheckVerdict {
  std::string check;  // "collectives_expected"
  CheckStatus status = CheckStatus::pass;
  CheckAction action = CheckAction::none;
  std::vector<std::string> codes;  // the findings behind the status, in the order found
  std::string evidence;            // the worst finding's evidence, or why the check could not run
};

struct Verdict {
  CheckStatus status = CheckStatus::pass;
  CheckAction action = CheckAction::none;
  std::string expectations;  // where the expected figures came from: "built-in" or the site file
  std::vector<CheckVerdict> checks;
  // 1.6: the headline, one sentence every view prints (analyse/verdict/outcome.hpp), and its key
  // ("errors", "warnings", "incomplete", "healthy", "unmeasured", "failed", "refused", "running").
  std::string headline;
  std::string outcome;
};

template <>
struct EnumNames<CheckStatus> {
  static constexpr std::string_view what = "check status";
  static constexpr std::array<EnumName<CheckStatus>, 5> table{{{CheckStatus::pass, "PASS"},
                                                               {CheckStatus::info, "INFO"},
                                                               {CheckStatus::unknown, "UNKNOWN"},
                                                               {CheckStatus::warning, "WARNING"},
                                                               {CheckStatus::critical, "CRITICAL"}}};
};

template <>
struct EnumNames<CheckAction> {
  static constexpr std::string_view what = "check action";
  static constexpr std::array<EnumName<CheckAction>, 4> table{
      {{CheckAction::none, "none"},
       {CheckAction::investigate, "investigate"},
       {CheckAction::fix_configuration, "fix_configuration"},
       {CheckAction::drain, "drain"}}};
};

}  // namespace fb
