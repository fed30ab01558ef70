#pragma once
// What `fabricbench p2p` measures and how (plain data).
#include <cstdint>
#include <string>
#include <vector>

namespace fb {

struct P2pPlan {
  std::vector<int> gpus;
  std::vector<std::string> cpulists;   // per entry of gpus: local CPUs, for host buffers
  std::uint64_t bytes = 512ULL << 20;  // per copy
  int copies_per_sample = 16;          // back-to-back copies timed together
  int samples = 5;                     // median reported
  bool pairs = true;                   // GPU<->GPU tests
  bool host = true;                    // host<->GPU tests
  bool latency = true;
  std::uint64_t latency_bytes = 2ULL << 20;  // pointer-chase buffer
  std::uint64_t latency_stride = 256;        // bytes between hops
  int latency_hops = 100000;
};

}  // namespace fb
