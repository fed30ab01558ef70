#include "analyse/run/algo_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "bench/collective_spec.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

std::string forced_text(const AlgoConfig& c) {
  std::string out;
  if (!c.algo.empty()) out += "NCCL_ALGO=" + c.algo;
  if (!c.proto.empty()) out += std::string(out.empty() ? "" : " ") + "NCCL_PROTO=" + c.proto;
  return out;
}

double noise(const Point& p) { return std::isfinite(p.time_us.median_ci) ? p.time_us.median_ci : 0.05; }

}  // namespace

std::string AlgoConfig::label() const {
  if (is_default()) return "default";
  return fmt::format("{}/{}", algo.empty() ? "*" : algo, proto.empty() ? "*" : proto);
}

std::vector<SizeWinner> winners(const std::vector<AlgoConfig>& configs) {
  std::vector<SizeWinner> out;
  std::size_t sizes = 0;
  for (const auto& c : configs) sizes = std::max(sizes, c.points.size());
  for (std::size_t i = 0; i < sizes; ++i) {
    SizeWinner w;
    for (std::size_t k = 0; k < configs.size(); ++k) {
      const auto& pts = configs[k].points;
      if (i >= pts.size()) continue;
      w.bytes = pts[i].bytes;
      if (pts[i].busbw_gbps > w.busbw_gbps) {
        w.busbw_gbps = pts[i].busbw_gbps;
        w.config = k;
      }
    }
    out.push_back(w);
  }
  return out;
}

namespace {

// NCCL's own choice at a size, from the default configuration's point (its log); empty: unknown.
bool same_as_nccls_choice(const AlgoConfig& c, const Point& d) {
  if (d.nccl_algo.empty() && d.nccl_proto.empty()) return false;
  const bool algo_same = c.algo.empty() || lower(c.algo) == lower(d.nccl_algo);
  const bool proto_same = c.proto.empty() || lower(c.proto) == lower(d.nccl_proto);
  return algo_same && proto_same;
}

const AlgoConfig* best_forced(const std::vector<AlgoConfig>& configs, std::size_t i, const Point& d) {
  const AlgoConfig* best = nullptr;
  for (const auto& c : configs)
    if (!c.is_default() && c.failure.empty() && i < c.points.size() && c.points[i].bytes == d.bytes &&
        !same_as_nccls_choice(c, d) && (!best || c.points[i].busbw_gbps > best->points[i].busbw_gbps))
      best = &c;
  return best;
}

std::string nccl_choice_text(const Point& d) {
  if (d.nccl_algo.empty()) return "NCCL's own choice";
  return fmt::format("NCCL's own choice ({}/{})", d.nccl_algo, d.nccl_proto);
}

}  // namespace

std::vector<Finding> forced_beats_default(const std::vector<AlgoConfig>& configs, double min_gain,
                                          std::uint64_t min_bytes) {
  std::vector<Finding> out;
  const auto def = std::find_if(configs.begin(), configs.end(), [](const auto& c) { return c.is_default(); });
  if (def == configs.end()) return out;
  // One finding per size: the best forced configuration that differs from NCCL's choice.
  for (std::size_t i = 0; i < def->points.size(); ++i) {
    const auto& d = def->points[i];
    const AlgoConfig* best = best_forced(configs, i, d);
    if (!best) continue;
    const auto& f = best->points[i];
    if (f.bytes < min_bytes || d.busbw_gbps <= 0) continue;
    const double gain = f.busbw_gbps / d.busbw_gbps - 1;
    const double threshold = std::max({min_gain, noise(f) + noise(d)});
    if (gain <= threshold) continue;
    const bool worth_it = gain >= kAlgoWarningGain;
    out.push_back(
        {"ALGO_FORCED_FASTER", worth_it ? Severity::warning : Severity::info,
         fmt::format("{} reaches {:.1f} GB/s busbw at {} B, {} {:.1f} GB/s ({:+.1f}%, beyond the two "
                     "intervals +-{:.1f}%)",
                     forced_text(*best), f.busbw_gbps, f.bytes, nccl_choice_text(d), d.busbw_gbps, gain * 100,
                     threshold * 100),
         worth_it ? fmt::format("NCCL's choice within {:.0f}% of the best forced one", kAlgoWarningGain * 100)
                  : "a hint: gains under 10% rarely justify pinning NCCL's choice",
         "write the winners with --tuner-csv and load them with NCCL_TUNER_CONFIG_FILE (NCCL's example "
         "tuner plugin), or set NCCL_ALGO/NCCL_PROTO for jobs dominated by this size"});
  }
  return out;
}

std::string tuner_csv(const std::string& collective_name, int nranks, int nnodes,
                      const std::vector<SizeWinner>& w, const std::vector<AlgoConfig>& configs) {
  const std::string_view type = collective(collective_name).tuner_type;
  if (type.empty())
    FB_USAGE_ERROR(fmt::format("the NCCL tuner plugin has no entry type for {}", collective_name));
  struct Range {
    std::uint64_t lo, hi;
    std::string algo, proto;
  };
  std::vector<Range> ranges;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto& cfg = configs.at(w[i].config);
    std::string algo = cfg.algo;
    std::string proto = cfg.proto;
    if (cfg.is_default()) {  // pin what NCCL chose; skip the size if its log did not say
      algo = w[i].nccl_algo;
      proto = w[i].nccl_proto;
    }
    if (algo.empty() || proto.empty()) continue;
    const std::uint64_t lo = ranges.empty() ? 0 : ranges.back().hi + 1;
    const std::uint64_t hi =
        i + 1 < w.size() ? static_cast<std::uint64_t>(std::floor(std::sqrt(
                               static_cast<double>(w[i].bytes) * static_cast<double>(w[i + 1].bytes))))
                         : std::numeric_limits<std::uint64_t>::max();
    if (!ranges.empty() && lower(ranges.back().algo) == lower(algo) &&
        lower(ranges.back().proto) == lower(proto))
      ranges.back().hi = hi;
    else
      ranges.push_back({lo, hi, algo, proto});
  }
  std::string out = fmt::format(
      "# NCCL tuner plugin configuration written by fabricbench algos ({} ranks, {} node{})\n"
      "# colltype,minbytes,maxbytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff\n",
      nranks, nnodes, nnodes == 1 ? "" : "s");
  for (const auto& r : ranges)
    out += fmt::format("{},{},{},{},{},-1,{},{},-1,-1\n", type, r.lo, r.hi, lower(r.algo), lower(r.proto),
                       nnodes, nranks);
  return out;
}

std::vector<Finding> check_algorithms(const Result& r) {
  std::vector<AlgoConfig> configs;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::algos) continue;
    AlgoConfig c;
    if (const auto it = run.forced.find("NCCL_ALGO"); it != run.forced.end()) c.algo = it->second;
    if (const auto it = run.forced.find("NCCL_PROTO"); it != run.forced.end()) c.proto = it->second;
    c.points = run.points;
    c.failure = run.failure;
    configs.push_back(std::move(c));
  }
  return configs.empty() ? std::vector<Finding>{} : forced_beats_default(configs, 0.01, 0);
}

}  // namespace fb
