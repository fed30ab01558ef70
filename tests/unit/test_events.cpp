// What the engine says while it works goes to the sink it is given (core/events.hpp), in order,
// with its fields: where a sweep stands, a failed job ending every rank, an interrupted command.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/plan.hpp"
#include "comm/job_session.hpp"
#include "engine/machine/result_header.hpp"
#include "engine/plans/plan_runner.hpp"
#include "engine/plans/sweep_progress.hpp"
#include "fake_job.hpp"
#include "recording_sink.hpp"

namespace {

// A job of two ranks whose abort is observable instead of ending the test.
class FakeJob final : public fb::JobSession {
 public:
  struct Aborted {
    fb::ExitCode code;
    std::string why;
  };
  FakeJob() { set_world(0, {"a", "b"}, {}); }
  [[nodiscard]] fb::Bootstrap& bootstrap() override { throw std::logic_error("not exchanged"); }
  [[nodiscard]] fb::JobLauncher launcher_kind() const override { return fb::JobLauncher::torchrun; }
  [[noreturn]] void abort(fb::ExitCode code, const std::string& why) override { throw Aborted{code, why}; }
  void finish() override {}
};

fb::PlanOutcome failed(const std::string& failure) {
  fb::PlanOutcome o;
  o.supervisor.ok = false;
  o.supervisor.code = fb::ExitCode::run_failed;
  o.failure = failure;
  return o;
}

}  // namespace

TEST(SweepProgress, PricesWhatIsLeftAtTheMeanOfWhatIsDone) {
  EXPECT_EQ(fb::sweep_progress_text(fb::sweep_position(0, 11, 0.0)),
            "1 of 11");  // nothing measured: no guess
  EXPECT_EQ(fb::sweep_progress_text(fb::sweep_position(3, 11, 24.0)),
            "4 of 11, 24 s so far, about 64 s left");  // 8 s each
  EXPECT_EQ(fb::sweep_progress_text(fb::sweep_position(1, 2, 1.4)), "2 of 2, 1 s so far, about 1 s left");
}

// algos and scale announce each run this way (engine/algos_runner, engine/scale_runner).
TEST(EngineEvents, SweepAnnouncesEachRunWithWhereItStands) {
  RecordingSink sink;
  const std::vector<double> clock{0.0, 10.0, 24.0};
  std::size_t tick = 0;
  fb::SweepProgress progress(3, sink, [&] { return clock.at(tick++); });
  progress.announce(0, "sweeping NCCL's default");
  progress.announce(1, "sweeping Ring/LL");
  progress.announce(2, "all_reduce on 2 GPUs", "best placement: 0,1");
  ASSERT_EQ(sink.events.size(), 3u);
  for (const auto& e : sink.events) {
    EXPECT_EQ(e.kind, fb::EventKind::progress);
    ASSERT_TRUE(e.sweep.has_value());
    EXPECT_EQ(e.sweep->total, 3);
    EXPECT_FALSE(e.rank.has_value());
  }
  EXPECT_EQ(sink.events[0].text, "sweeping NCCL's default (1 of 3)");
  EXPECT_EQ(sink.events[0].sweep->done, 0);
  EXPECT_FALSE(sink.events[0].sweep->left_s.has_value());  // nothing done: no guess
  EXPECT_EQ(sink.events[1].text, "sweeping Ring/LL (2 of 3, 10 s so far, about 20 s left)");
  EXPECT_EQ(sink.events[1].sweep->done, 1);
  EXPECT_DOUBLE_EQ(sink.events[1].sweep->elapsed_s, 10.0);
  EXPECT_DOUBLE_EQ(*sink.events[1].sweep->left_s, 20.0);
  EXPECT_EQ(sink.events[2].text,
            "all_reduce on 2 GPUs (best placement: 0,1; 3 of 3, 24 s so far, about 12 s left)");
  EXPECT_EQ(sink.events[2].sweep->done, 2);
  EXPECT_DOUBLE_EQ(*sink.events[2].sweep->left_s, 12.0);
}

TEST(EngineEvents, AFailedJobSaysItEndsEveryRankBeforeItDoes) {
  RecordingSink sink;
  fb::Plan plan;
  plan.launcher = fb::LauncherKind::job;
  const auto outcome = failed("rank 1 (b) died during 'all_reduce 1 MiB'");
  fb::end_job_if_failed(plan, outcome, sink);  // no job installed: nothing to end, nothing said
  EXPECT_TRUE(sink.events.empty());
  FakeJob job;
  const InstalledJob installed(job);
  fb::end_job_if_failed(plan, fb::PlanOutcome{}, sink);  // the plan did not fail
  EXPECT_TRUE(sink.events.empty());
  try {
    fb::end_job_if_failed(plan, outcome, sink);
    FAIL() << "the job was not ended";
  } catch (const FakeJob::Aborted& a) {
    EXPECT_EQ(a.code, fb::ExitCode::run_failed);
    EXPECT_EQ(a.why, outcome.failure);
  }
  ASSERT_EQ(sink.events.size(), 1u);
  EXPECT_EQ(sink.events[0].kind, fb::EventKind::stage);
  EXPECT_EQ(sink.events[0].text, "ending every rank: rank 1 (b) died during 'all_reduce 1 MiB'");
}

TEST(EngineEvents, AnInterruptedCommandSaysWhatItsReportHolds) {
  RecordingSink sink;
  fb::Result result;
  fb::mark_interrupted(result, "interrupted after 2 GPU group(s)", sink);
  EXPECT_EQ(result.status, fb::RunStatus::failed);
  EXPECT_EQ(result.failure, "interrupted after 2 GPU group(s)");
  ASSERT_EQ(sink.events.size(), 1u);
  EXPECT_EQ(sink.events[0].kind, fb::EventKind::stopped);
  EXPECT_EQ(sink.events[0].text, "interrupted after 2 GPU group(s): the report holds what was measured");
}

// A worker's events cross the launcher protocol as JSON (launch/worker_link, engine/plan_runner).
TEST(EngineEvents, EventsSurviveTheWorkersProtocol) {
  fb::Event e = fb::make_event(fb::EventKind::warning, "rank 3: not bound to CPUs");
  e.rank = 3;
  e.sweep = fb::sweep_position(2, 5, 8.0);
  const auto back = nlohmann::json(e).get<fb::Event>();
  EXPECT_EQ(back.kind, e.kind);
  EXPECT_EQ(back.text, e.text);
  EXPECT_EQ(back.rank, e.rank);
  ASSERT_TRUE(back.sweep.has_value());
  EXPECT_EQ(back.sweep->done, 2);
  EXPECT_EQ(back.sweep->total, 5);
  EXPECT_DOUBLE_EQ(back.sweep->elapsed_s, 8.0);
  EXPECT_DOUBLE_EQ(*back.sweep->left_s, 12.0);
  const auto plain = nlohmann::json(fb::make_event(fb::EventKind::note, "n")).get<fb::Event>();
  EXPECT_FALSE(plain.rank.has_value());
  EXPECT_FALSE(plain.sweep.has_value());
  EXPECT_THROW(nlohmann::json::parse(R"({"kind": "shout", "text": "x"})").get<fb::Event>(), fb::Error);
}
