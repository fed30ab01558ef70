#pragma once
// `n` GPUs of 141 GB that reduce every type: H200s, named by their gfx942 twin in the HIP build
// (plan_builder asks the build's vendor whether a GPU has fp8, and sm_90 means nothing to AMD).
#include "engine/machine/machine_facts.hpp"
#include "gpu/vendor.hpp"

inline fb::MachineFacts h200_facts(int n = 2) {
  const bool kAmd = fb::gpu::build_vendor() == fb::gpu::Vendor::amd;
  const fb::DeviceSummary gpu{90, 150754820096ULL, "NVIDIA H200", kAmd ? "gfx942" : "sm_90"};
  fb::MachineFacts m;
  for (int i = 0; i < n; ++i) m.devices.push_back(gpu);
  m.nccl_version = 22803;
  return m;
}
