#pragma once
// Reads the host's configuration (model/host_facts.hpp) from /proc, sysfs, /dev/shm, the kernel
// log and NVML. Nothing here fails: what cannot be read keeps the reason in its fact's note.
#include <filesystem>
#include <vector>

#include "model/host_facts.hpp"
#include "model/topology.hpp"

namespace fb {

// The facts files give, under `root` ("/" on a live machine, a fixture folder in tests): kernel
// settings, IOMMU, /dev/shm, the kernel log's Xid lines, ACS on every bridge of each GPU's PCI
// path and each GPU's IOMMU group. `gpus` supply the PCI paths (topo/sysfs_probe.hpp).
HostFacts read_host_files(const std::filesystem::path& root, const std::vector<TopoGpu>& gpus);

// read_host_files plus, with `with_nvml`, live NVML's health readings for the GPUs (an absent
// NVML is noted in each GPU's facts).
HostFacts probe_host(const std::filesystem::path& root, const std::vector<TopoGpu>& gpus,
                     bool with_nvml = true);

}  // namespace fb
