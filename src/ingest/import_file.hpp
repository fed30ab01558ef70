#pragma once
// What `report` and `compare` read: a fabricbench result document, or another tool's output
// recognised by its content (never by its file name) and turned into one: nccl-tests' and
// rccl-tests' standard output (every generation), nccl-tests' -J JSON, rccl-tests' CSV, the
// PyTorch all_reduce script's lines. With it, its companions: NCCL's debug log (what ran at each
// size, transports, NVLS, NICs; NCCL's lines found in the output itself are read the same way), the
// topology as nvidia-smi topo -m or rocm-smi --showtopo printed it, and the GPUs where the output
// names none. What none of them tells stays unknown in `source.unknown`, with the flag that tells it.
// A --nccl-log that is not of the output's run (no NCCL line in it, another library, NCCL version,
// communicator size or hosts: companion_check) is a usage error naming why, unless `force`.
#include <string>

#include "model/result.hpp"

namespace fb {

struct ImportOptions {
  std::string nccl_log;    // --nccl-log FILE
  std::string topo;        // --topo FILE
  std::string gpu;         // --gpu "8 x H100 80GB HBM3"
  std::string collective;  // --collective NAME
  bool force = false;      // --force: a --nccl-log that is not the output's run's taken anyway, said so
  [[nodiscard]] bool any() const {
    return !nccl_log.empty() || !topo.empty() || !gpu.empty() || !collective.empty();
  }
};

// Reads `path`; a usage error naming it when it is neither a result document nor an output read here.
// The options apply to another tool's output only (a result document has its own facts).
Result load_result_or_output(const std::string& path, const ImportOptions& options = {});

// The same, refusing the options with a fabricbench document (a usage error naming the file): they
// describe another tool's output only. What `report`, `project` and `expectations --from` read.
Result load_input(const std::string& path, const ImportOptions& options);

// The same for text already read (`path` names it in messages and in `source.file`).
Result import_text(const std::string& text, const std::string& path, const ImportOptions& options = {});

}  // namespace fb
