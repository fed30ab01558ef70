#include "cli/topo_cli.hpp"

namespace fb {

CLI::App* add_topo_subcommand(CLI::App& app, TopoOptions& o) {
  auto* topo = app.add_subcommand("topo", "Show how the GPUs are wired and what each path can carry");
  topo->footer(R"(Reads sysfs (every vendor), NVML (NVIDIA, if present), rocm-smi (AMD, if present) and the
GPU runtime. Peaks are one direction, GB/s = 1e9 bytes/s. Exit 1 when an error-level finding
(NVLinks down, no peer access) is present.

Examples:
  fabricbench topo
  fabricbench topo --json topo.json
  fabricbench topo --sysfs-root captured/ --nvml-file nvml.json --no-runtime   # analyse captures)");
  topo->add_option("--json", o.json_path, "Write the topology in the result schema here");
  topo->add_option("--sysfs-root", o.sysfs_root, "Directory holding sys/ (default /)");
  topo->add_option("--nvml-file", o.nvml_file, "Read NVLink state from a saved NVML readout instead of NVML");
  topo->add_option("--rocm-smi-file", o.rocm_smi_file, "Read `rocm-smi --showtopo` output from this file");
  topo->add_flag("--no-runtime", o.no_runtime, "Do not ask the GPU runtime (offline analysis)");
  topo->add_option("--dump-nvml", o.dump_nvml_file, "Save the NVML readout here (to capture fixtures)");
  return topo;
}

}  // namespace fb
