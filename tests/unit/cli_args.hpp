#pragma once
// A command line parsed through the real CLI11 definitions of a subcommand, as main() parses it:
// the flags that bind straight into the request are tested where they are read.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <string>
#include <vector>

template <typename Options, typename AddSubcommand>
Options parse_subcommand(AddSubcommand add, const char* name, std::vector<std::string> args) {
  CLI::App app;
  Options o;
  add(app, o);
  args.insert(args.begin(), name);
  std::reverse(args.begin(), args.end());  // CLI11's vector form reads from the back
  app.parse(args);
  return o;
}
