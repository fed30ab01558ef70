#pragma once
// The lines a collective test prints when it dies, so that a crashed run is named as such with the
// tool's own line rather than taken for a damaged table: nccl-tests' and rccl-tests' "host: Test NCCL
// failure common.cu:392 'unhandled cuda error ...'" (and "Test CUDA failure"), the oldest nccl-tests'
// "NCCL failure all_reduce.cu:95 '...'", the " .. host pid N: Test failure common.cu:590" trail after
// them, a signal ("Segmentation fault", "*** Process received signal ***", mpirun's "exited on signal
// 11") and PyTorch's "DistBackendError" / "NCCL error in: ...".
#include <string>

namespace fb {

enum class FailureLine {
  none,
  primary,  // the failure itself: the line a reader is shown
  trail,    // what follows one (the call stack of "Test failure" lines, a launcher's summary)
};

FailureLine failure_line_kind(const std::string& text);

// Whether the line is nccl-tests' or rccl-tests' own failure report (an output that holds nothing
// else is still that tool's output: a run that died before its table).
bool is_collective_test_failure(const std::string& text);

}  // namespace fb
