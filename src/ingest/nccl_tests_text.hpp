#pragma once
// nccl-tests' and rccl-tests' standard output, every generation: one ToolRun per test in the file
// (a file may hold several, one after another: a script that ran each collective, or the same
// test repeated). Each test's header (the version line, "Collective test starting", nThread/nGpus/
// sizes/iterations, the "#  Rank ... device ... [bus id] NAME" lines), its table read against its
// own heading, and its footer ("Out of bounds values", "Avg bus bandwidth"). The '#' GitHub's
// Markdown eats from a pasted header is not needed. A row NCCL's log lines split at one of the
// tool's print calls is joined back; any other row that cannot be read is skipped and named.
#include <vector>

#include "ingest/paste_lines.hpp"
#include "ingest/tool_run.hpp"

namespace fb {

// Whether the text holds an nccl-tests/rccl-tests table heading ("size count type ... busbw").
bool looks_like_nccl_tests(const Paste& paste);

// The tests in the output; tests with a heading but no readable row are kept (their rows are in
// `skipped`), so that the caller can say why nothing was read.
std::vector<ToolRun> read_nccl_tests_text(const Paste& paste);

}  // namespace fb
