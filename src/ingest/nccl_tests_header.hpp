#pragma once
// The header and footer lines of an nccl-tests/rccl-tests test, each read into its ToolRun: the
// version lines, "Collective test starting", the nThread/nGpus/iterations line, the device lines
// of every generation ("#   Rank  0 Pid ..." before 2022, "#  Rank  0 Group  0 Pid ..." after,
// bus ids "[0x0f]", "[0000:0f:00]" or rccl-tests' "[0000:0f:00.0]"), the footer's out-of-bounds
// count and average bus bandwidth, and a command line that names the test ("./all_gather_perf").
#include <string>

#include "ingest/tool_run.hpp"

namespace fb {

enum class HeaderLine { none, version, starting, settings, device, out_of_bounds, average, command };

// What kind of line `line` is ('#' optional), and its facts read into `run` (a command line's test
// name into `command_collective`).
HeaderLine read_header_line(const std::string& line, ToolRun& run, std::string& command_collective);

// "0000:0f:00" (nccl-tests: domain:bus:device) or "0000:0f:00.0" (rccl-tests) as a PCI bus id
// "0000:0f:00.0"; "" for "0x0f" (the oldest print the bus alone).
std::string pci_bus_id_of(const std::string& text);

// fabricbench's collective name for a test binary's name ("all_reduce_perf", "all_reduce_perf_mpi",
// "./build/alltoall_perf"); "" when the word names no test.
std::string collective_of_binary(const std::string& word);

}  // namespace fb
