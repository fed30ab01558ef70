#pragma once
// Another tool's tests (ToolRun) as a fabricbench result document: its GPUs and hosts from the
// device lines, one collective run per test, each point's time, algbw and busbw in fabricbench's
// units and with fabricbench's bus factor (busbw recomputed where the tool's own factor differs,
// and said so), and `source`: the tool, its version, the file, what was converted, the lines
// skipped and what the output does not tell, with the flag that would tell it.
#include <string>
#include <vector>

#include "ingest/command_facts.hpp"
#include "ingest/tool_run.hpp"
#include "model/result.hpp"

namespace fb {

// `--gpu "8 x H100 80GB HBM3"`: what the output may not say.
struct GivenGpus {
  int count = 0;     // 0: not given
  std::string name;  // "" not given
};

// Parses "8 x NVIDIA H100 80GB HBM3", "8x H100" or a name alone; a usage error naming --gpu when
// the count is not a whole number in 1..4096 or the name is empty.
GivenGpus parse_given_gpus(const std::string& text);

struct ToolImport {
  std::string file;
  GivenGpus gpus;
  std::string collective;  // --collective: for an output that does not name its test
  CommandFacts command;    // the pasted command line: its processes, -g and -t count the ranks
};

// The document; a usage error naming the file when no test has a readable row and none failed, or when
// a test's collective or GPU count cannot be known (the error names the flag that tells it). A test that
// died (the tool's own failure line) makes the document's status "failed" with that line in `failure`,
// its rows read before it kept (none: no run).
Result result_from_tool_runs(std::vector<ToolRun> runs, const ToolImport& how);

}  // namespace fb
