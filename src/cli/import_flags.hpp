#pragma once
// The flags that describe another tool's output read as a document (nccl-tests, rccl-tests, the
// PyTorch script): its NCCL log, the topology text, the GPUs and the test where the output does not
// name them. `report`, `project` and `expectations --from` declare them the same way.
#include <CLI/CLI.hpp>
#include <string>

namespace fb {

struct ImportFlags {
  std::string nccl_log;    // --nccl-log FILE: NCCL's NCCL_DEBUG=INFO log of that run
  std::string topo;        // --topo FILE: nvidia-smi topo -m or rocm-smi --showtopo text
  std::string gpu;         // --gpu "8 x H100 80GB HBM3": where the output names no GPU
  std::string collective;  // --collective NAME: where the output does not name its test
};

void add_import_flags(CLI::App* cmd, std::string& nccl_log, std::string& topo, std::string& gpu,
                      std::string& collective);
inline void add_import_flags(CLI::App* cmd, ImportFlags& f) {
  add_import_flags(cmd, f.nccl_log, f.topo, f.gpu, f.collective);
}

}  // namespace fb
