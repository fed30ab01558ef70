#pragma once
// Whether GPUDirect RDMA can work on this host, from what the kernel shows (under `root`, "/" on
// a live machine): a peer-memory module loaded, or dma-buf (Linux 5.12 or later with NVIDIA's open
// kernel module, as NCCL's NCCL_DMABUF_ENABLE needs). What cannot be read stays unknown, with why.
#include <filesystem>
#include <optional>
#include <string>

#include "model/host_fact.hpp"

namespace fb {

// "nvidia_peermem" | "nv_peer_mem" | "none", from /sys/module.
HostFact read_gdr_peer_module(const std::filesystem::path& root);

// "possible" | "not possible", from /proc/sys/kernel/osrelease and /proc/driver/nvidia/version.
HostFact read_gdr_dma_buf(const std::filesystem::path& root);

// {major, minor} of a kernel release ("6.8.0-45-generic" -> {6, 8}); nullopt when not one.
std::optional<std::pair<int, int>> kernel_version(const std::string& release);

}  // namespace fb
