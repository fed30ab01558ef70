#pragma once
// The verdict as a Prometheus node-exporter textfile (`--prometheus FILE` on doctor and report;
// docs/cli.md, "Prometheus metrics"): what a scheduler's health check reads instead of the JSON.
// Every metric is a gauge with HELP and TYPE lines; `promtool check metrics` accepts the text.
#include <string>

#include "model/result.hpp"

namespace fb {

// The metrics of a judged document (r.verdict set, analyse/verdicts.hpp judge_result): the verdict
// per host (across hosts: each host's from the findings naming its GPUs and those naming none), each
// check's status, the findings per severity, each collective's busbw at its largest size and when the
// result was written.
std::string prometheus_textfile(const Result& r);

}  // namespace fb
