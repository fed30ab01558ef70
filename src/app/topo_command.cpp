#include "app/topo_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "analyse/host/host_checks.hpp"
#include "analyse/judge.hpp"
#include "analyse/network/nic_checks.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "engine/machine/result_header.hpp"
#include "model/result_json.hpp"
#include "report/host_console.hpp"
#include "report/json_reporter.hpp"
#include "report/network_console.hpp"
#include "report/topology_console.hpp"
#include "topo/host_probe.hpp"
#include "topo/machine_probe.hpp"
#include "topo/topology_checks.hpp"

namespace fb {

int topo_command(const TopoOptions& o, const std::vector<std::string>& command_line) {
  check_output_is_not_an_input(o.json_path, {o.nvml_file, o.rocm_smi_file});
  check_output_is_not_an_input(o.dump_nvml_file, {o.nvml_file, o.rocm_smi_file});
  TopologySources sources;
  sources.sysfs_root = o.sysfs_root;
  sources.nvml_file = o.nvml_file;
  sources.rocm_smi_file = o.rocm_smi_file;
  sources.use_runtime = !o.no_runtime;
  sources.dump_nvml_file = o.dump_nvml_file;

  Result result = make_result_header(command_line, nullptr, /*with_runtime=*/false);
  result.topology = probe_topology(sources);
  // A captured tree without a GPU is the wrong folder, not a machine without GPUs.
  if (o.sysfs_root != "/" && result.topology->gpus.empty())
    FB_USAGE_ERROR(
        fmt::format("--sysfs-root {}: no GPU under {}/sys/bus/pci/devices (a tree captured by "
                    "tests/fixtures/host/capture_host_tree.py, or / for this machine)",
                    o.sysfs_root, o.sysfs_root));
  // Live NVML only where the topology is the live machine's too (not a captured tree).
  const bool live = o.nvml_file.empty() && o.sysfs_root == "/";
  result.host.config = probe_host(o.sysfs_root, result.topology->gpus, live);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;
  judge(result);

  print_topology(std::cout, *result.topology, result.findings);
  print_host_facts(std::cout, *result.host.config);
  print_network(std::cout, result.host.config->network, &*result.topology);
  flush_stdout();
  // sysfs text is not promised to be UTF-8: a bad byte becomes U+FFFD rather than an exception.
  if (!o.json_path.empty())
    write_file_atomically(
        o.json_path,
        nlohmann::json(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (has_error_finding(result.findings)) return static_cast<int>(ExitCode::finding);
  return 0;
}

}  // namespace fb
