#pragma once
// The verdict contract (docs/verdicts.md) at the top of summary.md and report.html: the document's
// status and recommended action first, then each check's status, action and evidence. The same
// verdict as the JSON's `verdict`, `report --analyse` and the Prometheus textfile (one truth): the
// judged document's, else the contract over its findings.
#include <string>

#include "model/result.hpp"

namespace fb {

// The verdict the views show: r.verdict where the document was judged, else computed from r.findings.
Verdict shown_verdict(const Result& r);

// "**Verdict: WARNING (action: investigate)** · 7 of 9 checks PASS · expectations: built-in" and a
// table of the checks, as Markdown.
std::string verdict_markdown(const Result& r);

// The same as an HTML block (class "verdict", data-status and data-action for tools and tests).
std::string verdict_html(const Result& r);

}  // namespace fb
