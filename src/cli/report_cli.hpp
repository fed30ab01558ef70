#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace fb {

struct ReportOptions {
  std::string input;
  std::string output;  // "" = stdout
  std::string format;  // html | md | csv; "" = from the output's extension, else md
  bool analyse = false;
  std::string baseline;      // another result drawn dashed on the HTML busbw chart; "" = none
  std::string expectations;  // --expectations FILE: a site's baseline for the verdicts and "% of expected"
  std::string prometheus;    // --prometheus FILE: the verdict as a node-exporter textfile; "" = none
  std::string host;          // --host NAME: only that host's series in the textfile; "" = every host's
};

CLI::App* add_report_subcommand(CLI::App& app, ReportOptions& opts);

}  // namespace fb
