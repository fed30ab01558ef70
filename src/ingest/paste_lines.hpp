#pragma once
// A pasted or captured tool output as lines, cleaned of what others wrote into it: carriage
// returns, terminal escapes, launcher prefixes ("[1,0]<stdout>:", "[0]" of Intel MPI's
// -prepend-rank, srun -l's "0: ", torchrun --tee's "[default0]:") and NCCL's own log lines, which
// NCCL_DEBUG=INFO writes into the same stream and which can land in the middle of a table row.
// Those are kept apart as NCCL's log (comm/nccl_log reads them); the table's pieces before them are
// marked as cut there, so that the table's reader can join a row that NCCL's lines split at one of
// the tool's own print calls.
#include <string>
#include <vector>

namespace fb {

struct PasteLine {
  int number = 0;    // 1-based, in the file
  std::string text;  // cleaned, trailing white space removed
  bool cut = false;  // NCCL's log line began right after this text on the same line
};

struct Paste {
  std::vector<PasteLine> lines;  // the tool's own lines (NCCL's removed), empty lines dropped
  std::string nccl_log;          // NCCL's and RCCL's lines, one per line, as NCCL wrote them
  int nccl_lines = 0;
};

Paste clean_paste(const std::string& text);

}  // namespace fb
