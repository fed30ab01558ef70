#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "cli/import_flags.hpp"

namespace fb {

struct ExpectationsOptions {
  std::string expectations;  // a site file: shown with the built-in rows it leaves in place
  std::string from;          // a healthy run's result, or another tool's output: written as a site file
  ImportFlags import;        // that output's companions (as `report` reads them)
  std::string output;        // "" = stdout
  bool markdown = false;     // print the rows as docs/verdicts.md's table (the default)
  bool force = false;        // --from a run that is not complete or whose figures fall short
};

CLI::App* add_expectations_subcommand(CLI::App& app, ExpectationsOptions& opts);

}  // namespace fb
