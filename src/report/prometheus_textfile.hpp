#pragma once
// The verdict as a Prometheus node-exporter textfile (`--prometheus FILE` on doctor and report;
// docs/cli.md, "Prometheus metrics"): what a scheduler's health check reads instead of the JSON.
// Every metric is a gauge with HELP and TYPE lines and every series a host label; `promtool check
// metrics` accepts the text.
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

// The hosts a judged document (r.verdict set by analyse/judge.hpp) has series for: its
// GPUs' hosts when they sit on 2 or more (a job across hosts), else its one host.
std::vector<std::string> textfile_hosts(const Result& r);

// Every host's series (the cluster's file under a job; on one host, that host's): per host its
// verdict (across hosts: the contract over the findings naming its GPUs, those naming no host's and its
// own section's), each check's status, its findings per severity, each collective's busbw at its
// largest size, when the result was written and the rules' version.
std::string prometheus_textfile(const Result& r);

// Only `host`'s series: the file that host's first rank writes under a job, so that its node exporter
// publishes its own verdict and no other host's. A host the document does not hold is a usage error.
std::string host_prometheus_textfile(const Result& r, const std::string& host);

}  // namespace fb
