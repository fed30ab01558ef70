#include "report/verdict_blocks.hpp"

#include <fmt/format.h>

#include "analyse/verdict/verdict_contract.hpp"
#include "core/units.hpp"
#include "report/markdown_text.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

int passed(const Verdict& v) {
  int n = 0;
  for (const auto& c : v.checks) n += c.status == CheckStatus::pass ? 1 : 0;
  return n;
}

// A table cell's text: one line, no column break, nothing read as Markdown's or HTML's syntax.
std::string cell(const std::string& text) { return md_text(text); }

}  // namespace

Verdict shown_verdict(const Result& r) { return r.verdict.value_or(Verdict{}); }

std::string verdict_markdown(const Result& r) {
  const Verdict v = shown_verdict(r);
  std::string md = fmt::format("**Verdict: {} (action: {})** · {} of {} checks PASS · expectations: {}\n\n",
                               v.status, v.action, passed(v), v.checks.size(), cell(v.expectations));
  md += "| check | status | action | evidence |\n|---|---|---|---|\n";
  for (const auto& c : v.checks)
    md += fmt::format("| {} | {} | {} | {} |\n", c.check, c.status, c.action,
                      cell(with_human_sizes(c.evidence)));
  return md + "\n";
}

std::string verdict_html(const Result& r) {
  const Verdict v = shown_verdict(r);
  std::string html = fmt::format(
      "<section class=\"verdict\" data-status=\"{0}\" data-action=\"{1}\">\n<p><b>Verdict: {0} "
      "(action: {1})</b> · {2} of {3} checks PASS · expectations: {4}</p>\n<table "
      "class=\"checks\"><tr><th>check"
      "</th><th>status</th><th>action</th><th>evidence</th></tr>\n",
      to_string(v.status), to_string(v.action), passed(v), v.checks.size(), escape_html(v.expectations));
  for (const auto& c : v.checks)
    html += fmt::format(
        "<tr class=\"check-{0}\" data-check=\"{1}\" "
        "data-status=\"{0}\"><td>{1}</td><td>{0}</td><td>{2}</td><td "
        "class=\"evidence\">{3}</td></tr>\n",
        to_string(c.status), escape_html(c.check), to_string(c.action),
        escape_html(with_human_sizes(c.evidence)));
  return html + "</table>\n</section>\n";
}

}  // namespace fb
