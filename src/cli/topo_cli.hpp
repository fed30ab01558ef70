#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace fb {

struct TopoOptions {
  std::string json_path;
  std::string sysfs_root = "/";
  std::string nvml_file;
  std::string rocm_smi_file;
  std::string dump_nvml_file;
  bool no_runtime = false;
};

CLI::App* add_topo_subcommand(CLI::App& app, TopoOptions& opts);

}  // namespace fb
