#include "cli/run_plan_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "core/error.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

constexpr std::size_t kMaxSizes = 4096;

int parse_int(const std::string& text, const char* what) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
    FB_USAGE_ERROR(fmt::format("{} '{}' is not a whole number", what, text));
  return v;
}

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

void check_dtype_supported(DType t, const MachineFacts& m, const std::vector<int>& gpus) {
  const auto& info = dtype_info(t);
  if (m.nccl_version < info.min_nccl_version)
    FB_USAGE_ERROR(fmt::format("data type {} needs NCCL {}.{} or newer; the loaded NCCL is {}.{}.{}",
                               info.name, info.min_nccl_version / 10000, info.min_nccl_version % 10000 / 100,
                               m.nccl_version / 10000, m.nccl_version % 10000 / 100, m.nccl_version % 100));
  for (const int g : gpus) {
    const int cc = m.devices.at(static_cast<std::size_t>(g)).compute_capability;
    if (cc < info.min_compute_capability)
      FB_USAGE_ERROR(
          fmt::format("NCCL reduces {} only on compute capability {}.{} or newer; GPU {} "
                      "is {}.{}",
                      info.name, info.min_compute_capability / 10, info.min_compute_capability % 10, g,
                      cc / 10, cc % 10));
  }
}

void check_sampling(const RunOptions& o) {
  if (o.iters < 1) FB_USAGE_ERROR(fmt::format("-n/--iters must be at least 1 (got {})", o.iters));
  if (o.warmup < 0) FB_USAGE_ERROR(fmt::format("-w/--warmup_iters must be >= 0 (got {})", o.warmup));
  if (o.graph_launches < 0)
    FB_USAGE_ERROR(fmt::format("-G/--cudagraph must be >= 0 (got {})", o.graph_launches));
  if (o.check != 0 && o.check != 1) FB_USAGE_ERROR(fmt::format("-c/--check takes 0 or 1 (got {})", o.check));
  if (o.min_batches < 1) FB_USAGE_ERROR(fmt::format("--batches must be at least 1 (got {})", o.min_batches));
  if (o.max_batches < o.min_batches)
    FB_USAGE_ERROR(fmt::format("--max-batches ({}) is below --batches ({})", o.max_batches, o.min_batches));
  if (!(o.target_ci >= 0 && o.target_ci < 1))
    FB_USAGE_ERROR(fmt::format("--target-ci must be in [0, 1) (got {})", o.target_ci));
  if (!(o.max_time_s > 0)) FB_USAGE_ERROR(fmt::format("--max-time must be > 0 s (got {})", o.max_time_s));
  if (!(o.timeout_s > 0)) FB_USAGE_ERROR(fmt::format("--timeout must be > 0 s (got {})", o.timeout_s));
}

void check_fits(const Plan& plan, const MachineFacts& m) {
  const auto needs = buffer_needs(plan);
  const auto total = needs.total_with_nccl();
  for (const int g : plan.gpus) {
    const auto& dev = m.devices.at(static_cast<std::size_t>(g));
    if (total > dev.memory_bytes)
      FB_USAGE_ERROR(
          fmt::format("the largest point needs {} per GPU (send {} + receive {} + {} for NCCL) but GPU {} "
                      "({}) has {} in all; lower -e/--maxbytes",
                      format_bytes(total), format_bytes(needs.send), format_bytes(needs.recv),
                      format_bytes(kNcclReserveBytes), g, dev.name, format_bytes(dev.memory_bytes)));
  }
}

}  // namespace

std::vector<std::uint64_t> build_sizes(const RunOptions& o) {
  if (!o.sizes.empty()) {
    std::vector<std::uint64_t> out;
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
  std::uint64_t step = 0;
  double factor = 2;
  if (!o.step_bytes.empty()) {
    step = parse_size(o.step_bytes, "-i/--stepbytes");
  } else if (o.step_factor != 0) {
    factor = o.step_factor;
    if (!(factor > 1)) FB_USAGE_ERROR(fmt::format("-f/--stepfactor must be greater than 1 (got {})", factor));
  }
  std::vector<std::uint64_t> out;
  for (std::uint64_t s = lo; s <= hi;) {
    out.push_back(s);
    if (out.size() > kMaxSizes)
      FB_USAGE_ERROR(fmt::format("that range gives more than {} sizes; use a larger step", kMaxSizes));
    const auto next = step ? s + step : static_cast<std::uint64_t>(static_cast<double>(s) * factor);
    if (next <= s) break;  // factor too small to advance at this size, or overflow
    s = next;
  }
  return out;
}

std::vector<int> parse_gpu_selection(const std::string& text, int available) {
  if (available <= 0) FB_USAGE_ERROR("no GPU is visible");
  std::vector<int> gpus;
  if (text.empty()) {
    for (int i = 0; i < available; ++i) gpus.push_back(i);
    return gpus;
  }
  const bool is_list = text.find_first_of(",-") != std::string::npos;
  if (!is_list) {
    const int n = parse_int(text, "--gpus");
    if (n < 1 || n > available)
      FB_USAGE_ERROR(fmt::format("--gpus {} asks for {} GPUs but {} {} visible", text, n, available,
                                 available == 1 ? "is" : "are"));
    for (int i = 0; i < n; ++i) gpus.push_back(i);
    return gpus;
  }
  for (const auto& item : split(text, ',')) {
    const auto dash = item.find('-');
    const int first = parse_int(item.substr(0, dash), "--gpus entry");
    const int last = dash == std::string::npos ? first : parse_int(item.substr(dash + 1), "--gpus entry");
    if (first > last) FB_USAGE_ERROR(fmt::format("--gpus range '{}' is backwards", item));
    for (int g = first; g <= last; ++g) {
      if (g < 0 || g >= available)
        FB_USAGE_ERROR(fmt::format("--gpus names GPU {} but only GPUs 0-{} are visible", g, available - 1));
      if (std::find(gpus.begin(), gpus.end(), g) != gpus.end())
        FB_USAGE_ERROR(fmt::format("--gpus names GPU {} twice", g));
      gpus.push_back(g);
    }
  }
  return gpus;
}

std::vector<int> gpus_of_mpi_ranks(const RunOptions& o, const std::vector<int>& selected,
                                   const std::vector<int>& local_ranks) {
  if (o.launcher == "threads")
    FB_USAGE_ERROR("under mpirun every MPI rank drives one GPU: drop --launcher threads");
  if (o.cpu_bind != "none")
    FB_USAGE_ERROR(
        "under mpirun the ranks are bound by mpirun: use its --bind-to (or --map-by) instead of --cpu-bind");
  std::vector<int> gpus;
  for (std::size_t r = 0; r < local_ranks.size(); ++r) {
    const auto local = static_cast<std::size_t>(local_ranks[r]);
    if (local >= selected.size())
      FB_USAGE_ERROR(fmt::format(
          "MPI rank {} is process {} on its host, but {} GPU{} {} selected per host{}: "
          "start at most {} process{} per host",
          r, local + 1, selected.size(), selected.size() == 1 ? "" : "s", selected.size() == 1 ? "is" : "are",
          o.gpus.empty() ? "" : fmt::format(" (--gpus {})", o.gpus), selected.size(),
          selected.size() == 1 ? "" : "es"));
    gpus.push_back(selected[local]);
  }
  return gpus;
}

void check_run_options(const RunOptions& o) {
  check_sampling(o);
  expand_collectives(o.collectives);
  parse_dtypes(o.dtype);
  parse_redops(o.op);
  build_sizes(o);
}

Plan build_run_plan(const RunOptions& o, const MachineFacts& machine) {
  Plan plan;
  check_sampling(o);
  const auto collectives = expand_collectives(o.collectives);
  const auto dtypes = parse_dtypes(o.dtype);
  const auto ops = parse_redops(o.op);
  plan.sizes = build_sizes(o);
  plan.gpus = parse_gpu_selection(o.gpus, static_cast<int>(machine.devices.size()));
  if (!machine.mpi_local_ranks.empty()) plan.gpus = gpus_of_mpi_ranks(o, plan.gpus, machine.mpi_local_ranks);
  if (o.root < 0 || o.root >= plan.nranks())
    FB_USAGE_ERROR(fmt::format("-r/--root {} is not a rank of this run (0-{})", o.root, plan.nranks() - 1));
  for (const auto t : dtypes) check_dtype_supported(t, machine, plan.gpus);

  for (const auto& name : collectives) {
    const auto& spec = collective(name);
    for (const auto t : dtypes) {
      if (!spec.reduces) {
        plan.runs.push_back({name, t, RedOp::sum, spec.rooted ? o.root : 0});
        continue;
      }
      for (const auto op : ops) plan.runs.push_back({name, t, op, spec.rooted ? o.root : 0});
    }
  }
  if (o.in_place != "on") plan.placements.push_back(false);
  if (o.in_place != "off") plan.placements.push_back(true);
  plan.launcher = !machine.mpi_local_ranks.empty() ? LauncherKind::mpi
                  : o.launcher == "threads"        ? LauncherKind::threads
                                                   : LauncherKind::processes;
  plan.sampling = {o.iters,       o.warmup,    o.graph_launches, o.min_batches,
                   o.max_batches, o.target_ci, o.max_time_s};
  plan.check = o.check == 1;
  plan.inject_corruption = o.inject_corruption;
  plan.timeout_s = o.timeout_s;
  plan.nccl_lib = o.nccl_lib;
  plan.cpu_bind = o.cpu_bind;

  bool any_point = false;
  for (const auto& run : plan.runs) any_point = any_point || !plan_points(plan, run).empty();
  if (!any_point)
    FB_USAGE_ERROR(
        fmt::format("no size in the list holds a single element per rank on {} GPUs; "
                    "raise -e/--maxbytes",
                    plan.nranks()));
  check_fits(plan, machine);
  return plan;
}

}  // namespace fb
