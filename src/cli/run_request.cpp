#include "cli/run_request.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "bench/collective_spec.hpp"
#include "cli/range_checks.hpp"
#include "core/error.hpp"
#include "core/parse_number.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "model/json_limits.hpp"

namespace fb {
namespace {

// A GPU ordinal in --gpus: far more than any machine has would only make a huge list.
int parse_gpu_id(const std::string& text) { return parse_int_in(text, "--gpus entry", 0, kMaxGpus - 1); }

std::vector<std::string> expand_collectives(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& name : names) {
    if (name == "all") {
      for (const auto& spec : all_collectives()) out.emplace_back(spec.name);
    } else {
      out.emplace_back(collective(name).name);
    }
  }
  std::vector<std::string> unique;
  for (auto& n : out)
    if (std::find(unique.begin(), unique.end(), n) == unique.end()) unique.push_back(n);
  return unique;
}

template <typename T, typename Parse, typename All>
std::vector<T> parse_list(const std::string& text, Parse parse, All all) {
  if (text == "all") return all();
  std::vector<T> out;
  for (const auto& item : split(text, ','))
    if (const T v = parse(item); std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}

std::vector<DType> parse_dtypes(const std::string& text) {
  return parse_list<DType>(text, parse_dtype, [] {
    std::vector<DType> v;
    for (const auto& t : all_dtypes()) v.push_back(t.id);
    return v;
  });
}

std::vector<RedOp> parse_redops(const std::string& text) {
  return parse_list<RedOp>(text, parse_redop, [] {
    std::vector<RedOp> v;
    for (const auto& op : all_redops()) v.push_back(op.id);
    return v;
  });
}

// What the flags bound into the request: -n and -w are checked as they are read.
void check_settings(const RunRequest& r) {
  const auto& s = r.settings.sampling;
  require_at_least("-G/--cudagraph", s.graph_launches, 0);
  require_at_least("--batches", s.min_batches, 1);
  if (s.max_batches < s.min_batches)
    FB_USAGE_ERROR(fmt::format("--max-batches ({}) is below --batches ({})", s.max_batches, s.min_batches));
  if (!(s.target_ci >= 0 && s.target_ci < 1))
    FB_USAGE_ERROR(fmt::format("--target-ci must be in [0, 1) (got {})", s.target_ci));
  if (!(s.max_time_s > 0 && s.max_time_s <= kMaxSeconds))
    FB_USAGE_ERROR(fmt::format("--max-time must be in (0, {}] s (got {})", kMaxSeconds, s.max_time_s));
  check_timeout(r.settings.timeout_s, "--timeout");
  require_at_least("-r/--root", r.root, 0);
  // The check writes its own inputs before the timing.
  if (r.settings.fill == BufferFill::zeros && r.settings.check)
    FB_USAGE_ERROR("--fill zeros cannot be kept with -c 1: the data check fills the buffers with its inputs");
}

std::vector<bool> in_place_variants(const std::string& in_place) {
  std::vector<bool> placements;
  if (in_place != "on") placements.push_back(false);
  if (in_place != "off") placements.push_back(true);
  return placements;
}

}  // namespace

std::vector<std::uint64_t> build_sizes(const RunOptions& o) {
  if (!o.sizes.empty()) {
    std::vector<std::uint64_t> out;
    out.reserve(o.sizes.size());
    for (const auto& s : o.sizes) out.push_back(parse_size(s, "--sizes entry"));
    return out;
  }
  const auto lo = parse_size(o.min_bytes, "-b/--minbytes");
  const auto hi = parse_size(o.max_bytes, "-e/--maxbytes");
  if (lo > hi)
    FB_USAGE_ERROR(fmt::format("-b/--minbytes ({}) is larger than -e/--maxbytes ({})", format_bytes(lo),
                               format_bytes(hi)));
  if (!o.step_bytes.empty() && o.step_factor != 0)
    FB_USAGE_ERROR("give either -f/--stepfactor or -i/--stepbytes, not both");
  if (!o.step_bytes.empty()) return size_sweep(lo, hi, 0, parse_size(o.step_bytes, "-i/--stepbytes"));
  if (o.step_factor != 0 && !(o.step_factor > 1 && std::isfinite(o.step_factor)))
    FB_USAGE_ERROR(
        fmt::format("-f/--stepfactor must be a finite number greater than 1 (got {})", o.step_factor));
  // A factor that steps from -b straight past -e would silently measure one size.
  if (o.step_factor != 0 && lo<hi&& static_cast<double>(lo) * o.step_factor> static_cast<double>(hi))
    FB_USAGE_ERROR(fmt::format("-f/--stepfactor {} steps from {} past {} at once: only one size; lower it",
                               o.step_factor, format_bytes(lo), format_bytes(hi)));
  return size_sweep(lo, hi, o.step_factor != 0 ? o.step_factor : 2, 0);
}

void check_timeout(double seconds, const char* what) {
  // NaN fails every comparison; infinity and 1e300 s would overflow the clock's durations.
  if (!(seconds > 0 && seconds <= kMaxSeconds))
    FB_USAGE_ERROR(fmt::format("{} must be in (0, {}] s (got {})", what, kMaxSeconds, seconds));
}

GpuSelection parse_gpu_selection(const std::string& text) {
  if (text.empty()) return GpuSelection::all();
  if (text.find_first_of(",-") == std::string::npos) {
    const int n = parse_int_in(text, "--gpus");
    if (n < 1) FB_USAGE_ERROR(fmt::format("--gpus {} asks for {} GPUs: give at least 1", text, n));
    return GpuSelection::first(n);
  }
  std::vector<int> ids;
  for (const auto& item : split(text, ',')) {
    const auto dash = item.find('-');
    const int first = parse_gpu_id(item.substr(0, dash));
    const int last = dash == std::string::npos ? first : parse_gpu_id(item.substr(dash + 1));
    if (first > last) FB_USAGE_ERROR(fmt::format("--gpus range '{}' is backwards", item));
    for (int g = first; g <= last; ++g) {
      if (std::find(ids.begin(), ids.end(), g) != ids.end())
        FB_USAGE_ERROR(fmt::format("--gpus names GPU {} twice", g));
      ids.push_back(g);
    }
  }
  return GpuSelection::these(ids);
}

std::vector<std::string> parse_name_list(const std::string& text, const char* what) {
  auto names = split(text, ',');
  for (const auto& n : names)
    if (n.empty()) FB_USAGE_ERROR(fmt::format("{} '{}' has an empty entry", what, text));
  return names;
}

RunRequest run_request(const RunOptions& o) {
  RunRequest r = o.request;
  check_settings(r);
  r.collectives = expand_collectives(o.collectives);
  r.dtypes = parse_dtypes(o.dtype);
  r.ops = parse_redops(o.op);
  r.sizes = build_sizes(o);
  r.gpus = parse_gpu_selection(o.gpus);
  r.settings.placements = in_place_variants(o.in_place);
  r.launcher = o.launcher == "threads" ? LauncherKind::threads : LauncherKind::processes;
  return r;
}

}  // namespace fb
