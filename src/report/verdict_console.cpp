#include "report/verdict_console.hpp"

#include <fmt/format.h>

namespace fb {

void print_verdict(std::ostream& out, const Verdict& v) {
  int passed = 0;
  for (const auto& c : v.checks) passed += c.status == CheckStatus::pass ? 1 : 0;
  out << fmt::format("verdict: {} (action: {}; {} of {} checks PASS; expectations: {})\n", v.status, v.action,
                     passed, v.checks.size(), v.expectations);
  for (const auto& c : v.checks)
    if (c.status != CheckStatus::pass)
      out << fmt::format("  {:<8} {}: {}\n", to_string(c.status), c.check, c.evidence);
}

}  // namespace fb
