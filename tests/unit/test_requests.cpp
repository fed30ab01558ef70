// Typed requests: the CLI turns the user's strings into them (syntax errors there), doctor and
// scale build theirs directly, and the engine checks them against the machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include "cli/algos_cli.hpp"
#include "cli/doctor_cli.hpp"
#include "cli/p2p_cli.hpp"
#include "cli/run_request.hpp"
#include "cli/scale_cli.hpp"
#include "core/error.hpp"
#include "engine/doctor/doctor_job_stages.hpp"
#include "engine/doctor/doctor_stages.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/plans/scale_runner.hpp"
#include "engine/pricing/estimates.hpp"
#include "expect_error.hpp"
#include "h200_facts.hpp"
#include "model/result_json.hpp"
#include "recording_sink.hpp"

namespace {

constexpr std::uint64_t kMiB = 1ULL << 20;

}  // namespace

TEST(Requests, SizeSweepByFactorAndStep) {
  EXPECT_EQ(fb::size_sweep(kMiB, 64 * kMiB, 4, 0),
            (std::vector<std::uint64_t>{kMiB, 4 * kMiB, 16 * kMiB, 64 * kMiB}));
  EXPECT_EQ(fb::size_sweep(10, 35, 0, 10), (std::vector<std::uint64_t>{10, 20, 30}));
  expect_usage_error([] { fb::size_sweep(1, 5000, 0, 1); }, "more than 4096 sizes");
}

TEST(Requests, RunRequestIsTyped) {
  fb::RunOptions o;
  o.collectives = {"all_reduce", "broadcast", "all_reduce"};
  o.dtype = "half,float";
  o.op = "max";
  o.sizes = {"1M", "1G"};
  o.gpus = "0,2";
  o.in_place = "both";
  o.launcher = "threads";
  o.request.settings.cpu_bind = fb::CpuBind::numa;
  o.request.settings.alloc = fb::BufferAlloc::runtime;
  o.request.settings.check = true;
  const auto r = fb::run_request(o);
  EXPECT_EQ(r.collectives, (std::vector<std::string>{"all_reduce", "broadcast"}));
  EXPECT_EQ(r.dtypes, (std::vector<fb::DType>{fb::DType::float16, fb::DType::float32}));
  EXPECT_EQ(r.ops, (std::vector<fb::RedOp>{fb::RedOp::max}));
  EXPECT_EQ(r.sizes, (std::vector<std::uint64_t>{kMiB, 1024 * kMiB}));
  EXPECT_EQ(r.gpus.ids, (std::vector<int>{0, 2}));
  EXPECT_EQ(r.settings.placements, (std::vector<bool>{false, true}));
  EXPECT_EQ(r.launcher, fb::LauncherKind::threads);
  EXPECT_EQ(r.settings.cpu_bind, fb::CpuBind::numa);
  EXPECT_EQ(r.settings.alloc, fb::BufferAlloc::runtime);
  EXPECT_EQ(r.settings.fill, fb::BufferFill::pattern);
  EXPECT_TRUE(r.settings.check);
}

// Zeros compare with nccl-tests -c 0; the data check would write its own inputs over them.
TEST(Requests, ZeroFillIsRefusedWithTheDataCheck) {
  fb::RunOptions o;
  o.collectives = {"all_reduce"};
  o.request.settings.fill = fb::BufferFill::zeros;
  EXPECT_EQ(fb::run_request(o).settings.fill, fb::BufferFill::zeros);
  o.request.settings.check = true;
  expect_usage_error([&] { fb::run_request(o); }, "--fill zeros cannot be kept with -c 1");
}

TEST(Requests, NameListsRejectEmptyEntries) {
  EXPECT_EQ(fb::parse_name_list("Ring,Tree", "--algos"), (std::vector<std::string>{"Ring", "Tree"}));
  expect_usage_error([] { fb::parse_name_list("Ring,,Tree", "--algos"); },
                     "--algos 'Ring,,Tree' has an empty entry");
  expect_usage_error([] { fb::parse_name_list("", "--protos"); }, "--protos '' has an empty entry");
}

TEST(Requests, AlgosChecksNamesBeforeAnyGpu) {
  fb::AlgosOptions o;
  o.measure.collectives = {"all_reduce"};
  const auto r = fb::algos_request(o);
  EXPECT_EQ(r.algos, (std::vector<std::string>{"Ring", "Tree"}));
  EXPECT_EQ(r.protos, (std::vector<std::string>{"LL", "LL128", "Simple"}));
  o.algos = "Ring,default";
  o.protos = "Simple";
  EXPECT_EQ(fb::algos_request(o).algos, (std::vector<std::string>{"Ring", "default"}));
  o.algos = "Ring,,Tree";
  expect_usage_error([&] { fb::algos_request(o); }, "empty entry");
  o.algos = "Rign";
  expect_usage_error([&] { fb::algos_request(o); }, "unknown algorithm 'Rign'");
  o.algos = "";
  o.measure.collectives = {"alltoall"};
  expect_usage_error([&] { fb::algos_request(o); }, "NCCL picks no algorithm for alltoall");
}

TEST(Requests, ScaleTakesOneSizeCountsAndPlacement) {
  fb::ScaleOptions o;
  o.measure.collectives = {"all_gather"};
  o.size = "256M";
  o.counts = "2,4";
  o.placement = "worst";
  const auto r = fb::scale_request(o);
  EXPECT_EQ(r.measure.sizes, (std::vector<std::uint64_t>{256 * kMiB}));
  EXPECT_EQ(r.counts, (std::vector<int>{2, 4}));
  EXPECT_FALSE(r.best);
  EXPECT_TRUE(r.worst);
  o.counts = "2,x";
  expect_usage_error([&] { fb::scale_request(o); }, "--counts entry 'x' is not a whole number");
  o.counts = "0";
  expect_usage_error([&] { fb::scale_request(o); }, "asks for 0 GPUs");
  o.counts = "";
  o.measure.gpus = "0,1";
  expect_usage_error([&] { fb::scale_request(o); }, "give --counts instead of --gpus");
}

TEST(Requests, ScaleCountsDefaultToPowersOfTwoAndEveryGpu) {
  EXPECT_EQ(fb::scale_counts({}, 8), (std::vector<int>{1, 2, 4, 8}));
  EXPECT_EQ(fb::scale_counts({}, 6), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(fb::scale_counts({}, 1), (std::vector<int>{1}));
  EXPECT_EQ(fb::scale_counts({2, 3}, 4), (std::vector<int>{2, 3}));
  expect_usage_error([] { fb::scale_counts({2, 8}, 4); }, "--counts asks for 8 GPUs but 4 are visible");
}

TEST(Requests, P2pSettingsAndGpus) {
  fb::P2pOptions o;
  o.size = "64M";
  o.gpus = "1";
  o.request.measure.latency = false;
  const auto r = fb::p2p_request(o);
  EXPECT_EQ(r.measure.bytes, 64 * kMiB);
  EXPECT_FALSE(r.measure.latency);
  fb::Topology topo;
  topo.gpus.resize(2);
  topo.gpus[0].index = 0;
  topo.gpus[0].cpulist = "0-31";
  topo.gpus[1].index = 1;
  topo.gpus[1].cpulist = "32-63";
  auto plan = fb::build_p2p_plan(r, 2, topo);
  EXPECT_EQ(plan.gpus, (std::vector<int>{0}));
  EXPECT_EQ(plan.cpulists, (std::vector<std::string>{"0-31"}));
  o.request.measure.host = false;
  expect_usage_error([&] { fb::build_p2p_plan(fb::p2p_request(o), 2, topo); },
                     "one GPU selected means host<->device only");
  o.gpus = "";
  EXPECT_EQ(fb::build_p2p_plan(fb::p2p_request(o), 2, topo).gpus, (std::vector<int>{0, 1}));
  o.request.measure.pairs = false;
  expect_usage_error([&] { fb::p2p_request(o); }, "--no-pairs and --no-host drop everything");
}

// --budget: the mode's default when left out, the value when given (0 and NaN are refused:
// tests/cli/hostile_input.sh).
TEST(Doctor, BudgetDefaultsToTheMode) {
  fb::DoctorOptions o;
  EXPECT_DOUBLE_EQ(fb::doctor_request(o).budget_or_default(), fb::kThoroughBudgetS);
  o.request.quick = true;
  EXPECT_DOUBLE_EQ(fb::doctor_request(o).budget_or_default(), fb::kQuickBudgetS);
  o.request.budget_s = 45.5;
  EXPECT_DOUBLE_EQ(fb::doctor_request(o).budget_or_default(), 45.5);
  o.request.budget_s = 0.0;
  expect_usage_error([&] { fb::doctor_request(o); }, "--budget must be in (0,");
}

TEST(Doctor, CollectivesRequestQuickAndThorough) {
  fb::DoctorOptions o;
  o.gpus = "1-2";
  o.request.quick = true;
  const auto quick_request = fb::doctor_request(o);
  const auto facts = h200_facts(4);
  const auto quick = fb::doctor_collectives_request(quick_request, facts, {1, 2});
  EXPECT_EQ(quick.sizes, (std::vector<std::uint64_t>{kMiB, 16 * kMiB, 256 * kMiB, 1024 * kMiB}));
  EXPECT_TRUE(quick.settings.check);
  EXPECT_DOUBLE_EQ(quick.settings.sampling.max_time_s, 0.3);
  EXPECT_EQ(fb::build_plan(quick, facts).gpus, (std::vector<int>{1, 2}));
  // Thorough: 1 MiB by 4 up to the largest power of two that fits 141 GiB with room (8 GiB).
  auto thorough_request = quick_request;
  thorough_request.quick = false;
  const auto thorough = fb::doctor_collectives_request(thorough_request, facts, {1, 2});
  EXPECT_EQ(fb::largest_fitting_size(facts, {1, 2}), 8192 * kMiB);
  EXPECT_EQ(thorough.sizes.front(), kMiB);
  EXPECT_EQ(thorough.sizes.back(), 4096 * kMiB);
  EXPECT_EQ(thorough.sizes.size(), 7u);
  // A 16 GiB GPU: 2 x 4 GiB + 1 GiB for NCCL + 2 GiB spare fits, 2 x 8 GiB does not.
  auto small = h200_facts(2);
  small.devices[1].memory_bytes = 16ULL << 30;
  EXPECT_EQ(fb::largest_fitting_size(small, {0, 1}), 4096 * kMiB);
}

namespace {
// The stage named `name` (by name: stages are added over time).
const fb::DoctorStage& doctor_stage(std::string_view name) {
  const auto& stages = fb::doctor_stages();
  return *std::find_if(stages.begin(), stages.end(),
                       [&](const fb::DoctorStage& s) { return s.name == name; });
}
}  // namespace

TEST(Doctor, StagesAreDataInTheirOrder) {
  const auto& stages = fb::doctor_stages();
  std::vector<std::string> names;
  for (const auto& s : stages) names.emplace_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"preflight", "host", "pairs", "network", "nodes", "collectives",
                                             "choices", "scaling", "algorithms"}));
  const fb::DoctorRequest request;
  const auto facts = h200_facts(4);
  const fb::Result result;
  RecordingSink events;
  const fb::DoctorContext two{request, facts, {0, 1}, {}, result, events};
  const fb::DoctorContext four{request, facts, {0, 1, 2, 3}, {}, result, events};
  EXPECT_FALSE(doctor_stage("scaling").applies(two));  // scaling needs more than two GPUs
  EXPECT_TRUE(doctor_stage("scaling").applies(four));
  for (const auto& s : stages) EXPECT_NE(s.prior_s, nullptr) << s.name;
}

// The stages of a job across hosts (engine/doctor_job_stages) stay out of a doctor on one host.
TEST(Doctor, JobStagesApplyOnlyUnderAJob) {
  const fb::DoctorRequest request;
  const auto facts = h200_facts(4);
  const fb::Result result;
  RecordingSink events;
  const fb::DoctorContext four{request, facts, {0, 1, 2, 3}, {}, result, events};
  for (const char* name : {"preflight", "network", "nodes"})
    EXPECT_FALSE(doctor_stage(name).applies(four)) << name;
}

// Across hosts the collectives are priced at the network's measured speed and cut from the largest
// size until they fit; each cut is said with its reason.
TEST(Doctor, CollectivesAcrossHostsAreCutToTheBudgetLeft) {
  fb::DoctorRequest request;
  request.quick = true;
  const auto facts = h200_facts(1);
  const fb::Result result;
  RecordingSink events;
  fb::DoctorContext ctx{request, facts, {0}, {}, result, events};
  ctx.collectives = fb::doctor_collectives_request(request, facts, {0});
  ctx.budget_left_s = 8;
  EXPECT_EQ(fb::plan_job_collectives(ctx).sizes, ctx.collectives.sizes);  // no speed yet: nothing cut
  ctx.speed.algbw_gbps = 0.1;  // a slow network: 1 GiB alone takes 10 s an operation
  ctx.speed.busbw_gbps = 0.1;
  ctx.speed.latency_us = 100;
  ctx.speed.start_s = 1.0;
  const auto plan = fb::plan_job_collectives(ctx);
  ASSERT_FALSE(plan.sizes.empty());
  EXPECT_LT(plan.sizes.back(), 1ULL << 30);
  ASSERT_EQ(plan.cuts.size(), 4 - plan.sizes.size());  // one cut said per size dropped
  EXPECT_EQ(plan.cuts[0].what, "1 GiB points");
  EXPECT_EQ(plan.cuts[0].stage, "collectives");
  EXPECT_NE(plan.cuts[0].why.find("at 0.10 GB/s all_reduce busbw; 8 s of the budget left"), std::string::npos)
      << plan.cuts[0].why;
  EXPECT_LE(plan.estimate_s, 8.0);
}

TEST(Doctor, ChoicesStageSpreadsNcclSetUpOverTheCollectiveRuns) {
  fb::Result result;
  result.runs.resize(3);                     // two collective runs from the collectives stage
  result.runs[1].nccl_transports = {"SHM"};  // one already knows its own
  result.runs[2].kind = fb::RunKind::algos;
  fb::StageOutput out;
  out.log.transports = {"P2P/CUMEM", "SHM"};
  out.log.coll_channels = 24;
  out.log.p2p_channels = 32;
  out.log.nvls_channels = 16;
  out.log.nvls_available = true;
  result.runs[0].collective = "all_reduce";  // NCCL's logged choice lands on the point of its size
  result.runs[0].points.resize(2);
  result.runs[0].points[0].bytes = 1ULL << 30;
  result.runs[0].points[1].bytes = 1ULL << 20;
  out.log.choices["AllReduce"][1ULL << 30] = {"NVLS", "SIMPLE", 16};
  doctor_stage("choices").merge(out, result);
  EXPECT_EQ(result.runs[0].points[0].nccl_algo, "NVLS");
  EXPECT_EQ(result.runs[0].points[0].nccl_channels, 16);
  EXPECT_EQ(result.runs[0].points[1].nccl_algo, "");  // no choice logged at that size
  EXPECT_EQ(result.runs[0].nccl_nvls_channels, std::optional<int>(16));
  EXPECT_EQ(result.runs[0].nccl_nvls_available, std::optional<bool>(true));
  ASSERT_EQ(result.runs.size(), 3u);
  EXPECT_EQ(result.runs[0].nccl_transports, (std::vector<std::string>{"P2P/CUMEM", "SHM"}));
  EXPECT_EQ(result.runs[0].nccl_coll_channels, 24);
  EXPECT_EQ(result.runs[1].nccl_transports, (std::vector<std::string>{"SHM"}));
  EXPECT_TRUE(result.runs[2].nccl_transports.empty());  // only collective runs take it
}

// The choices stage's set of workers prices the later stages: its wall time less one operation
// per size it probed, at the speed the collectives stage measured.
TEST(Doctor, ChoicesStageMeasuresWhatASetOfWorkersCosts) {
  fb::DoctorRequest request;
  request.quick = true;
  const auto facts = h200_facts(2);
  const fb::Result result;
  RecordingSink events;
  fb::DoctorContext ctx{request, facts, {0, 1}, {}, result, events};
  ctx.budget_left_s = 30;
  ctx.collectives.settings.sampling.max_time_s = 0.3;
  ctx.speed.algbw_gbps = 3;  // sockets: the quick grid's 256 MiB and 1 GiB stay at 0.5 s a set
  ctx.speed.busbw_gbps = 3;
  ctx.speed.latency_us = 20;
  ctx.speed.start_s = 2.0;  // not known yet: FabricSpeed's default
  ctx.plan = doctor_stage("choices").plan(ctx);
  ASSERT_EQ(ctx.plan.algos.sizes.size(), 7u);  // 512 KiB - 8 MiB, 256 MiB, 1 GiB
  fb::StageOutput out;
  out.log.transports = {"NET/Socket/0"};
  out.probe_points.resize(2);
  out.probe_points[0].time_us.median = 250'000;  // as the probe timed them, first use included
  out.probe_points[1].time_us.median = 350'000;
  for (auto& p : out.probe_points) {
    p.time_us.n = 1;
    p.iters_per_batch = 1;
  }
  doctor_stage("choices").learn(out, 1.6, ctx);
  EXPECT_NEAR(ctx.speed.start_s, 1.6 - 0.25 - 0.35, 1e-9);
  EXPECT_EQ(ctx.nccl_log.transports, out.log.transports);
  ctx.budget_left_s = 3;  // a budget the largest sizes cannot fit: the probe skips them too
  ctx.plan = doctor_stage("choices").plan(ctx);
  EXPECT_LT(ctx.plan.algos.sizes.size(), 7u);
  EXPECT_TRUE(ctx.plan.cuts.empty());  // the algorithms stage reports its own cuts
}

// `doctor --prolog` on 8 GPUs of an NVSwitch machine (the synthetic 8 x H100 document's topology):
// the host stage and the collectives stage's one verified 1 GiB all_reduce (the size the 8-GPU
// expectation rows start at), within its 5 s budget by the doctor's own estimate (a set of 8 workers
// 0.35 + 8 x 0.35 s, docs/metrics.md).
TEST(Doctor, PrologFitsItsFiveSecondsOnEightGpus) {
  fb::DoctorRequest request;
  request.prolog = true;
  const auto facts = h200_facts(8);
  const std::vector<int> gpus{0, 1, 2, 3, 4, 5, 6, 7};
  const fb::Result result = fb::load_result_file(FB_FIXTURE_DIR "/results/synthetic-nvswitch8.json");
  ASSERT_TRUE(result.topology.has_value());
  RecordingSink events;
  fb::DoctorContext ctx{request, facts, gpus, fb::doctor_collectives_request(request, facts, gpus),
                        result,  events};
  ctx.budget_left_s = request.budget_or_default();
  ctx.prior = fb::prior_speed(*result.topology, gpus, {});
  EXPECT_DOUBLE_EQ(request.budget_or_default(), 5);
  EXPECT_EQ(ctx.collectives.collectives, (std::vector<std::string>{"all_reduce"}));
  EXPECT_EQ(ctx.collectives.sizes, (std::vector<std::uint64_t>{1ULL << 30}));
  std::vector<std::string> ran;
  double total_s = 0;
  for (const auto& stage : fb::doctor_stages())
    if (stage.applies(ctx)) {
      ran.emplace_back(stage.name);
      total_s += stage.prior_s(ctx);
    }
  EXPECT_EQ(ran, (std::vector<std::string>{"host", "collectives"}));
  EXPECT_LE(total_s, 5.0);
  EXPECT_GE(total_s, 3.0);  // 8 workers' start alone is 3.15 s
  std::printf("doctor --prolog on 8 GPUs, estimated: %.2f s\n", total_s);
}

// `doctor --passive` (a periodic check on a busy node): the host stage alone, nothing measured.
TEST(Doctor, PassiveRunsTheHostStageOnly) {
  fb::DoctorRequest request;
  request.passive = true;
  const auto facts = h200_facts(8);
  const std::vector<int> gpus{0, 1, 2, 3, 4, 5, 6, 7};
  const fb::Result result = fb::load_result_file(FB_FIXTURE_DIR "/results/synthetic-nvswitch8.json");
  RecordingSink events;
  fb::DoctorContext ctx{request, facts, gpus, fb::doctor_collectives_request(request, facts, gpus),
                        result,  events};
  std::vector<std::string> ran;
  for (const auto& stage : fb::doctor_stages())
    if (stage.applies(ctx)) ran.emplace_back(stage.name);
  EXPECT_EQ(ran, (std::vector<std::string>{"host"}));
  EXPECT_DOUBLE_EQ(request.budget_or_default(), 5);
}
