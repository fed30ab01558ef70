#include "topo/machine_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "gpu/runtime.hpp"
#include "gpu/vendor.hpp"
#include "topo/amd_smi_probe.hpp"
#include "topo/nvml_probe.hpp"
#include "topo/rocm_smi_library.hpp"
#include "topo/topology_builder.hpp"

namespace fb {
namespace {

std::optional<RuntimePeers> read_runtime(std::vector<std::string>& missing) {
  try {
    const int n = gpu::device_count();
    RuntimePeers r;
    r.runtime = gpu::runtime_name();
    for (int i = 0; i < n; ++i) {
      const auto p = gpu::device_props(i);
      r.bus_ids.push_back(p.pci_bus_id);
      r.names.push_back(p.name);
    }
    r.access.assign(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(n), 0));
    r.rank.assign(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(n), -1));
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (a == b) continue;
        r.access[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] =
            gpu::can_access_peer(a, b) ? 1 : 0;
        r.rank[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = gpu::p2p_performance_rank(a, b);
      }
    return r;
  } catch (const Error& e) {
    missing.push_back(fmt::format("{} runtime: {}", gpu::runtime_name(), e.what()));
    return std::nullopt;
  }
}

// A saved readout given with --nvml-file: an input file, so a malformed one is a usage error.
NvmlReadout read_nvml_readout(const std::string& path) {
  const std::string text = read_file(path);
  try {
    return parse_nvml_readout(text);
  } catch (const Error& e) {
    FB_USAGE_ERROR(fmt::format("{}: not an NVML readout: {}", path, e.what()));
  }
}

// The ROCm SMI library first (it reads xGMI bandwidth and so the link count), then rocm-smi's text.
void read_amd_links(TopologyInputs& in) {
  std::string lib_why;
  in.amd = read_rocm_smi_library("", lib_why);
  if (in.amd) {
    in.sources.push_back(in.amd->source + ": link type, hops, weight, xGMI bandwidth, P2P, PCIe, NUMA");
    return;
  }
  std::string text_why;
  in.amd = read_rocm_smi(text_why);
  if (in.amd) {
    in.sources.emplace_back("rocm-smi --showtopo (link type, hops, weight, NUMA; xGMI link counts inferred)");
    in.missing.push_back(lib_why + "; read rocm-smi's text instead");
  } else {
    in.missing.push_back(lib_why);
    in.missing.push_back(text_why);
  }
}

// A file the user named whose link types describe other GPUs than this machine's is the wrong
// file: its rows could only be guessed onto GPUs (the text names no bus ids). A text without link
// types (a partitioned GPU's) has no pair to get wrong: build_topology reads it and says what it lacks.
void require_every_amd_gpu(const RocmSmiTopo& smi, const SysfsReadout& sysfs, const std::string& file) {
  if (smi.link_type.empty()) return;
  const auto amd =
      std::count_if(sysfs.gpus.begin(), sysfs.gpus.end(), [](const TopoGpu& g) { return g.vendor == "amd"; });
  if (amd != smi.n)
    FB_USAGE_ERROR(
        fmt::format("--rocm-smi-file {}: it lists {} GPUs, sysfs {} AMD GPUs; rocm-smi's text names no bus "
                    "ids, so its rows cannot be matched to this machine's GPUs",
                    file, smi.n, amd));
}

}  // namespace

Topology probe_topology(const TopologySources& s) {
  TopologyInputs in;
  in.sysfs = read_sysfs(s.sysfs_root);
  in.missing = in.sysfs.missing;
  in.sources.push_back(fmt::format("sysfs ({})", s.sysfs_root));

  bool any_nvidia = false;
  bool any_amd = false;
  for (const auto& g : in.sysfs.gpus) (g.vendor == "nvidia" ? any_nvidia : any_amd) = true;

  if (!s.nvml_file.empty()) {
    in.nvml = read_nvml_readout(s.nvml_file);
    in.sources.push_back(fmt::format("NVML readout ({})", s.nvml_file));
  } else {
    std::string why;
    in.nvml = read_nvml(why);
    if (in.nvml) {
      in.sources.push_back(fmt::format("NVML (driver {})", in.nvml->driver));
      if (!s.dump_nvml_file.empty())
        write_file_atomically(
            s.dump_nvml_file,
            nlohmann::json(*in.nvml).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    } else if (any_nvidia || in.sysfs.gpus.empty()) {
      in.missing.push_back(why + ": NVLink state and NVML peer status not read");
    }
  }

  if (!s.rocm_smi_file.empty()) {
    in.amd = parse_rocm_smi_topo(read_file(s.rocm_smi_file));
    require_every_amd_gpu(*in.amd, in.sysfs, s.rocm_smi_file);
    in.sources.push_back(fmt::format("rocm-smi output ({}; xGMI link counts inferred)", s.rocm_smi_file));
  } else if (any_amd) {
    read_amd_links(in);
  }

  if (s.use_runtime) {
    in.runtime = read_runtime(in.missing);
    if (in.runtime)
      in.sources.push_back(fmt::format("{} runtime {}", gpu::runtime_name(), gpu::runtime_version()));
  }
  if (in.sysfs.gpus.empty() && !in.runtime)
    in.missing.push_back("no GPU found: sysfs lists no NVIDIA or AMD display controller");
  return build_topology(in);
}

}  // namespace fb
