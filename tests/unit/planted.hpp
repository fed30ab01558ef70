#pragma once
// Documents for the planted-fault suite: the real result fixtures (tests/fixtures/results), with
// +-1% noise for the healthy cases and one fault planted at a time.
#include <algorithm>
#include <string>
#include <vector>

#include "analyse/judge.hpp"
#include "core/file_io.hpp"
#include "model/result_json.hpp"

namespace planted {

inline fb::Result load(const std::string& name) {
  return fb::parse_result(fb::read_file(std::string(FB_FIXTURE_DIR) + "/results/" + name + ".json"));
}

// +-1% on every figure, alternating, times moved with their bandwidths.
inline fb::Result with_noise(fb::Result r, double sign = 1) {
  int k = 0;
  auto factor = [&] { return 1 + 0.01 * sign * ((k++ % 2) != 0 ? 1 : -1); };
  for (auto& run : r.runs)
    for (auto& p : run.points) {
      const double f = factor();
      p.busbw_gbps *= f;
      p.algbw_gbps *= f;
      p.time_us.median /= f;
      p.time_us.min /= f;
      p.time_us.mean /= f;
      p.time_us.p99 /= f;
      p.time_us.max /= f;
    }
  for (auto& m : r.p2p) {
    const double f = factor();
    m.value *= f;
    m.min *= f;
    m.max *= f;
  }
  r.findings.clear();
  return r;
}

// Scales every point of a run at or above `from_bytes` (time moved with it).
inline void scale_run(fb::Run& run, double f, std::uint64_t from_bytes = 0) {
  for (auto& p : run.points) {
    if (p.bytes < from_bytes) continue;
    p.busbw_gbps *= f;
    p.algbw_gbps *= f;
    p.time_us.median /= f;
    p.time_us.min /= f;
    p.time_us.mean /= f;
    p.time_us.p99 /= f;
    p.time_us.max /= f;
  }
}

inline fb::Run& run_of(fb::Result& r, const std::string& collective,
                       fb::RunKind kind = fb::RunKind::collective) {
  return *std::find_if(r.runs.begin(), r.runs.end(),
                       [&](const fb::Run& x) { return x.kind == kind && x.collective == collective; });
}

inline fb::P2pMeasurement& p2p_of(fb::Result& r, fb::P2pTest test, int src, int dst) {
  return *std::find_if(r.p2p.begin(), r.p2p.end(), [&](const fb::P2pMeasurement& m) {
    return m.test == test && m.src == src && m.dst == dst;
  });
}

inline std::vector<const fb::Finding*> with_code(const std::vector<fb::Finding>& f, const std::string& code) {
  std::vector<const fb::Finding*> out;
  for (const auto& x : f)
    if (x.code == code) out.push_back(&x);
  return out;
}

// Codes of the warnings and errors ("CODE:severity"), for messages.
inline std::string loud(const std::vector<fb::Finding>& f) {
  std::string out;
  for (const auto& x : f)
    if (x.severity != fb::Severity::info)
      out += x.code + ":" + std::string(fb::to_string(x.severity)) + " " + x.evidence + "\n";
  return out;
}

}  // namespace planted
