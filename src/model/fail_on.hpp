#pragma once
// The gate's level (`doctor --fail-on`, docs/verdicts.md "The gate"): which findings fail it (exit 1).
// error: an error-level finding (the verdict's action drain); warning: also a warning about the node
// (action investigate), never one about a job's configuration (analyse/verdict/gate_policy.hpp).
#include <array>

#include "core/enum_names.hpp"

namespace fb {

enum class FailOn { error, warning };

template <>
struct EnumNames<FailOn> {
  static constexpr std::string_view what = "--fail-on level";
  static constexpr std::array<EnumName<FailOn>, 2> table{
      {{FailOn::error, "error"}, {FailOn::warning, "warning"}}};
};

}  // namespace fb
