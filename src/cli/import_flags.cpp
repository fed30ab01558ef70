#include "cli/import_flags.hpp"

namespace fb {

void add_import_flags(CLI::App* cmd, std::string& nccl_log, std::string& topo, std::string& gpu,
                      std::string& collective) {
  cmd->add_option(
      "--nccl-log", nccl_log,
      "With another tool's output: NCCL's log of that run (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING): "
      "the algorithm at each size, transports, NVLS, NICs");
  cmd->add_option("--topo", topo,
                  "With another tool's output: `nvidia-smi topo -m` or `rocm-smi --showtopo` text");
  cmd->add_option(
      "--gpu", gpu,
      "With another tool's output that names no GPU: count and model, e.g. \"8 x H100 80GB HBM3\"");
  cmd->add_option("--collective", collective,
                  "With another tool's output that does not name its test (old nccl-tests): e.g. all_gather");
}

}  // namespace fb
