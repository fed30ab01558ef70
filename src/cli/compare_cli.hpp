#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace fb {

struct CompareOptions {
  std::string base;
  std::string next;
  double threshold = 0.05;
  std::string min_size = "64M";
  bool markdown = false;  // --format md (--markdown: the older spelling)
  std::string format;     // text | md; "" = text
  bool force = false;     // compare documents of different machines or runs anyway
  std::string output;     // -o: the HTML page (.html/.htm) or the table; "" = only the table on stdout
};

CLI::App* add_compare_subcommand(CLI::App& app, CompareOptions& opts);

}  // namespace fb
