#include "engine/plans/group_worker.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "bench/collective_driver.hpp"
#include "comm/group_bootstrap.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "engine/plans/worker.hpp"
#include "model/json_limits.hpp"
#include "model/result_json.hpp"

namespace fb {
namespace {

// Passes steps and events on, keeps the points: every group's first rank measures its own, and
// only the job's rank 0 reports, once they are gathered.
class PointKeeper final : public ProgressSink {
 public:
  explicit PointKeeper(ProgressSink& sink) : sink_(sink) {}
  void begin(const std::string& label) override { sink_.begin(label); }
  void emit(const Event& event) override { sink_.emit(event); }
  void point(int run_index, const Point& point) override {
    kept_.push_back({{"run", run_index}, {"point", point}});
  }
  [[nodiscard]] const nlohmann::json& kept() const { return kept_; }

 private:
  ProgressSink& sink_;
  nlohmann::json kept_ = nlohmann::json::array();
};

// The group's communicator and buffers, then every group starts measuring at once (`job`'s
// barrier, which the ranks in no group join too), so that a round's pairs share the fabric for
// the same window.
void measure_in_group(const Plan& plan, GroupBootstrap& group, Bootstrap& job, PointKeeper& keeper,
                      std::unique_ptr<Collectives>& collectives) {
  const Plan mine = group_plan(plan, static_cast<std::size_t>(group.group()));
  const auto local = assignment_for(mine, group.rank());
  keeper.begin(fmt::format("start-up: NCCL initialisation of ranks {}", fmt::join(group.members(), ",")));
  check_free_memory(mine, local);
  collectives = connect_nccl(mine, local, group);
  keeper.begin("start-up: buffers");
  run_collective_plan(mine, local, *collectives, group, keeper, [&] {
    keeper.begin("start-up: waiting for every group");
    job.barrier();
  });
  keeper.begin("teardown");
  collectives.reset();
}

// A group's first rank's points, as rank 0 takes them: an array, its nesting bounded, its types
// checked when each point is read (Error(run_failed) naming the group otherwise).
nlohmann::json group_points(const std::string& text, std::size_t group) {
  std::string why;
  auto j = parse_json_bounded(text, kMaxJsonDepth, why);
  if (!j || !j->is_array())
    throw Error(ExitCode::run_failed, fmt::format("group {}'s points are not a list of points{}", group,
                                                  why.empty() ? "" : ": " + why));
  return std::move(*j);
}

}  // namespace

Plan group_plan(const Plan& plan, std::size_t group) {
  Plan mine = plan;
  mine.groups.clear();
  mine.gpus.clear();
  mine.cpulists.clear();
  for (const int r : plan.groups.at(group)) {
    mine.gpus.push_back(plan.gpus.at(static_cast<std::size_t>(r)));
    if (static_cast<std::size_t>(r) < plan.cpulists.size()) mine.cpulists.push_back(plan.cpulists[r]);
  }
  return mine;
}

void run_group_worker(const Plan& plan, int process, Bootstrap& job, ProgressSink& sink,
                      std::unique_ptr<Collectives>& collectives) {
  sink.begin("start-up: the groups' connections");
  const auto group = GroupBootstrap::join(job, plan.groups, plan.settings.timeout_s);
  PointKeeper keeper(sink);
  if (group)
    measure_in_group(plan, *group, job, keeper, collectives);
  else
    job.barrier();  // the groups' start
  sink.begin("gathering the groups' points");
  const bool reports = group && group->rank() == 0;
  const auto all = job.allgather(reports ? keeper.kept().dump() : std::string());
  if (process != 0) return;
  const int runs = static_cast<int>(plan.runs.size());
  for (std::size_t g = 0; g < plan.groups.size(); ++g) {
    const auto& text = all.at(static_cast<std::size_t>(plan.groups[g].front()));
    if (text.empty()) continue;
    for (const auto& kept : group_points(text, g))
      sink.point(static_cast<int>(g) * runs + kept.at("run").get<int>(), kept.at("point").get<Point>());
  }
}

}  // namespace fb
