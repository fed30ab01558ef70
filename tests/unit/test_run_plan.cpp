#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "bench/plan.hpp"
#include "cli/run_cli.hpp"
#include "cli/run_request.hpp"
#include "cli_args.hpp"
#include "core/cpu_affinity.hpp"
#include "core/error.hpp"
#include "engine/plans/plan_builder.hpp"
#include "expect_error.hpp"
#include "gpu/vendor.hpp"
#include "h200_facts.hpp"

namespace {

fb::RunOptions opts(std::vector<std::string> collectives) {
  fb::RunOptions o;
  o.collectives = std::move(collectives);
  return o;
}

fb::RunOptions run_args(std::vector<std::string> args) {
  return parse_subcommand<fb::RunOptions>(fb::add_run_subcommand, "run", std::move(args));
}

// The user's options through the CLI's request into the engine's plan, as `run` does.
fb::Plan plan_of(const fb::RunOptions& o, const fb::MachineFacts& m) {
  return fb::build_plan(fb::run_request(o), m);
}

}  // namespace

TEST(Sizes, FactorSweepAsNcclTests) {
  auto o = opts({"all_reduce"});
  o.min_bytes = "8";
  o.max_bytes = "128";
  o.step_factor = 2;
  EXPECT_EQ(fb::build_sizes(o), (std::vector<std::uint64_t>{8, 16, 32, 64, 128}));
  o.step_factor = 3;  // 8 24 72; 216 > 128
  EXPECT_EQ(fb::build_sizes(o), (std::vector<std::uint64_t>{8, 24, 72}));
}

TEST(Sizes, ByteStepAndExplicitList) {
  auto o = opts({"all_reduce"});
  o.min_bytes = "1K";
  o.max_bytes = "4K";
  o.step_bytes = "1K";
  EXPECT_EQ(fb::build_sizes(o), (std::vector<std::uint64_t>{1024, 2048, 3072, 4096}));
  auto l = opts({"all_reduce"});
  l.sizes = {"1M", "64M", "1G"};
  EXPECT_EQ(fb::build_sizes(l), (std::vector<std::uint64_t>{1 << 20, 64 << 20, 1 << 30}));
}

TEST(Sizes, Errors) {
  auto o = opts({"all_reduce"});
  o.min_bytes = "1G";
  o.max_bytes = "1M";
  expect_usage_error([&] { fb::build_sizes(o); }, "larger than -e");
  o = opts({"all_reduce"});
  o.step_factor = 1;
  expect_usage_error([&] { fb::build_sizes(o); }, "greater than 1");
  o.step_factor = 2;
  o.step_bytes = "1K";
  expect_usage_error([&] { fb::build_sizes(o); }, "not both");
  o = opts({"all_reduce"});
  o.min_bytes = "1";
  o.max_bytes = "1G";
  o.step_bytes = "1";
  expect_usage_error([&] { fb::build_sizes(o); }, "more than");
}

TEST(GpuSelection, CountListAndRange) {
  const auto resolve = [](const std::string& text, int available) {
    return fb::resolve_gpus(fb::parse_gpu_selection(text), available);
  };
  EXPECT_EQ(resolve("", 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(resolve("2", 4), (std::vector<int>{0, 1}));
  EXPECT_EQ(resolve("3,1", 4), (std::vector<int>{3, 1}));
  EXPECT_EQ(resolve("1-3", 4), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(resolve("2-2", 4), (std::vector<int>{2}));
}

TEST(GpuSelection, TypedKindsAndTheirText) {
  EXPECT_EQ(fb::parse_gpu_selection("").kind, fb::GpuSelection::Kind::all);
  const auto first = fb::parse_gpu_selection("3");
  EXPECT_EQ(first.kind, fb::GpuSelection::Kind::first);
  EXPECT_EQ(first.count, 3);
  const auto ids = fb::parse_gpu_selection("2,0-1");
  EXPECT_EQ(ids.kind, fb::GpuSelection::Kind::ids);
  EXPECT_EQ(ids.ids, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(ids.text(), "2,0,1");
  EXPECT_EQ(first.text(), "3");
  EXPECT_EQ(fb::GpuSelection::all().text(), "");
  // One GPU by id is a list of one, not "the first 1" (what doctor and scale build directly).
  EXPECT_EQ(fb::resolve_gpus(fb::GpuSelection::these({1}), 2), (std::vector<int>{1}));
}

TEST(GpuSelection, SyntaxErrorsNeedNoMachine) {
  expect_usage_error([] { fb::parse_gpu_selection("1,1"); }, "twice");
  expect_usage_error([] { fb::parse_gpu_selection("x"); }, "not a whole number");
  expect_usage_error([] { fb::parse_gpu_selection("0"); }, "asks for 0");
  expect_usage_error([] { fb::parse_gpu_selection("3-1"); }, "backwards");
  expect_usage_error([] { fb::parse_gpu_selection("0,,1"); }, "not a whole number");
}

TEST(GpuSelection, BeyondWhatExists) {
  expect_usage_error([] { fb::resolve_gpus(fb::GpuSelection::first(8), 2); }, "2 are visible");
  expect_usage_error([] { fb::resolve_gpus(fb::GpuSelection::these({0, 5}), 2); }, "GPU 5");
  expect_usage_error([] { fb::resolve_gpus(fb::GpuSelection::all(), 0); }, "no GPU is visible");
}

TEST(RunPlan, ExpandsAllCollectivesDtypesAndOps) {
  auto o = opts({"all"});
  o.dtype = "all";
  o.op = "all";
  o.sizes = {"1M"};
  const auto plan = plan_of(o, h200_facts());
  // 3 reducing collectives x 12 types x 5 ops + 6 others (gather and scatter among them) x 12 types.
  EXPECT_EQ(plan.runs.size(), 3u * 12 * 5 + 6u * 12);
  EXPECT_EQ(plan.nranks(), 2);
  EXPECT_EQ(plan.settings.placements, (std::vector<bool>{false}));
}

TEST(RunPlan, InPlaceVariantsOnlyWhereSupported) {
  auto o = opts({"all_reduce", "alltoall"});
  o.sizes = {"1M"};
  o.in_place = "both";
  const auto plan = plan_of(o, h200_facts());
  EXPECT_EQ(plan.runs[0].points.size(), 2u);
  EXPECT_EQ(plan.runs[1].points.size(), 1u);
}

TEST(RunPlan, RejectsBadNamesAndValues) {
  auto m = h200_facts();
  auto o = opts({"allreduce"});
  expect_usage_error([&] { plan_of(o, m); }, "unknown collective");
  o = opts({"all_reduce"});
  o.dtype = "float128";
  expect_usage_error([&] { plan_of(o, m); }, "unknown data type");
  o = opts({"all_reduce"});
  o.op = "xor";
  expect_usage_error([&] { plan_of(o, m); }, "unknown reduction op");
  o = opts({"broadcast"});
  o.request.root = 2;
  expect_usage_error([&] { plan_of(o, m); }, "-r/--root 2");
  o.collectives = {"all_reduce", "sendrecv"};  // no root to read: -r is not checked
  EXPECT_EQ(plan_of(o, m).runs.size(), 2u);
  o.collectives = {"all_reduce", "reduce"};  // one of them reads it
  expect_usage_error([&] { plan_of(o, m); }, "-r/--root 2");
  expect_usage_error([] { run_args({"all_reduce", "-n", "0"}); }, "--iters");
  expect_usage_error([] { run_args({"all_reduce", "-w", "-1"}); }, "--warmup_iters");
  expect_usage_error([] { run_args({"all_reduce", "-c", "2"}); }, "0 or 1");
  o = run_args({"all_reduce", "-n", "5", "-c", "1", "--alloc", "runtime", "--max-time", "0.5"});
  EXPECT_EQ(o.request.settings.sampling.iters, 5);
  EXPECT_TRUE(o.request.settings.check);
  EXPECT_EQ(o.request.settings.alloc, fb::BufferAlloc::runtime);
  EXPECT_EQ(o.request.settings.sampling.max_time_s, 0.5);
  EXPECT_EQ(plan_of(o, m).settings.sampling.iters, 5);  // the plan holds the same settings
  o = opts({"all_reduce"});
  o.request.settings.timeout_s = 0;
  expect_usage_error([&] { plan_of(o, m); }, "--timeout");
}

// fp8 needs NCCL 2.24 and a GPU with fp8 arithmetic: sm_90 on NVIDIA; on AMD MI300 (gfx942),
// not MI250X (gfx90a), although HIP gives both a compute capability of 9.x.
TEST(RunPlan, Fp8NeedsNewNcclAndAnFp8Gpu) {
  const bool kAmd = fb::gpu::build_vendor() == fb::gpu::Vendor::amd;
  auto o = opts({"all_reduce"});
  o.dtype = "f8e4m3";
  o.sizes = {"1M"};
  auto machine = [&] {
    auto m = h200_facts();
    if (kAmd)
      for (auto& d : m.devices) d = {94, 206141652992ULL, "AMD Instinct MI300X", "gfx942"};
    return m;
  };
  auto m = machine();
  EXPECT_NO_THROW(plan_of(o, m));
  m.nccl_version = 22304;
  expect_usage_error([&] { plan_of(o, m); }, "2.24 or newer");
  m = machine();
  if (kAmd) {
    m.devices[1] = {90, 68702699520ULL, "AMD Instinct MI250X", "gfx90a"};
    expect_usage_error([&] { plan_of(o, m); },
                       "RCCL reduces f8e4m3 only on gfx942 (MI300) or newer; GPU 1 "
                       "(AMD Instinct MI250X) is gfx90a");
  } else {
    m.devices[1] = {80, 85899345920ULL, "NVIDIA A100-SXM4-80GB", "sm_80"};
    expect_usage_error([&] { plan_of(o, m); },
                       "NCCL reduces f8e4m3 only on compute capability 9.0 or newer; "
                       "GPU 1 (NVIDIA A100-SXM4-80GB) is sm_80");
  }
  o.dtype = "bfloat16";  // no floor: every GPU of either vendor
  EXPECT_NO_THROW(plan_of(o, m));
}

TEST(RunPlan, SizeThatDoesNotFitSaysHowMuchIsNeeded) {
  auto o = opts({"all_reduce"});
  o.sizes = {"100G"};
  expect_usage_error([&] { plan_of(o, h200_facts()); }, "needs 201 GiB per GPU");
}

TEST(RunPlan, SizesTooSmallForEveryRankAreAnError) {
  auto o = opts({"all_gather"});
  o.sizes = {"4"};  // one float, two ranks
  expect_usage_error([&] { plan_of(o, h200_facts()); }, "no size");
}

TEST(RunPlan, PlanSurvivesJsonToWorkers) {
  auto o = opts({"all_reduce", "broadcast"});
  o.sizes = {"1M", "4M"};
  o.request.root = 1;
  o.request.settings.sampling.graph_launches = 10;
  o.launcher = "threads";
  const auto plan = plan_of(o, h200_facts());
  const fb::Plan back = nlohmann::json(plan).get<fb::Plan>();
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(plan));
  EXPECT_EQ(back.runs[1].root, 1);
  EXPECT_EQ(back.launcher, fb::LauncherKind::threads);
  EXPECT_EQ(fb::process_count(back), 1);
  EXPECT_EQ(fb::assignment_for(back, 0).devices, (std::vector<int>{0, 1}));
}

TEST(CpuList, ParsesRangesAndLists) {
  EXPECT_EQ(fb::parse_cpulist("0-3"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(fb::parse_cpulist("0-1,8,10-11"), (std::vector<int>{0, 1, 8, 10, 11}));
  EXPECT_TRUE(fb::parse_cpulist("").empty());
  EXPECT_TRUE(fb::parse_cpulist("3-1").empty());
  EXPECT_TRUE(fb::parse_cpulist("a-b").empty());
}

// --cpu-bind: each worker process on its GPU's local CPUs (or one of them per rank), and the threads
// launcher's one process on all its GPUs' local CPUs (or the first of them).
TEST(RunPlan, WorkersAreBoundToTheirGpusLocalCpus) {
  fb::Plan plan;
  plan.gpus = {0, 1, 2};
  plan.cpulists = {"0-3", "0-3", "8,9"};
  plan.settings.cpu_bind = fb::CpuBind::numa;
  // {-1}: nothing to bind (--cpu-bind none, a job); {}: CPUs unknown
  const auto cpus = [&plan](int process) {
    return fb::worker_cpus(plan, process).value_or(std::vector<int>{-1});
  };
  EXPECT_EQ(cpus(1), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(cpus(2), (std::vector<int>{8, 9}));
  plan.settings.cpu_bind = fb::CpuBind::core;
  EXPECT_EQ(cpus(1), (std::vector<int>{1}));  // rank 1: the 2nd of its 4 CPUs
  EXPECT_EQ(cpus(2), (std::vector<int>{8}));  // rank 2: 2 % 2 = the 1st of 2
  plan.launcher = fb::LauncherKind::threads;
  EXPECT_EQ(cpus(0), (std::vector<int>{0}));
  plan.settings.cpu_bind = fb::CpuBind::numa;
  EXPECT_EQ(cpus(0), (std::vector<int>{0, 1, 2, 3, 8, 9}));  // each CPU once
  plan.settings.cpu_bind = fb::CpuBind::none;
  EXPECT_EQ(cpus(0), (std::vector<int>{-1}));
  plan.settings.cpu_bind = fb::CpuBind::numa;
  plan.launcher = fb::LauncherKind::job;  // bound by the job's launcher
  EXPECT_EQ(cpus(0), (std::vector<int>{-1}));
  plan.launcher = fb::LauncherKind::processes;
  plan.cpulists = {"", "", ""};  // unknown: nothing to bind to, which the worker warns of
  EXPECT_TRUE(cpus(1).empty());
}

TEST(RunPlan, IterationsRotateThroughTheLargestPointsBuffers) {
  auto o = opts({"all_reduce", "all_gather"});
  o.sizes = {"1M", "16M", "64M"};
  const auto plan = plan_of(o, h200_facts());
  const auto needs = fb::buffer_needs(plan);
  // all_reduce 64M: 64 MiB send and receive; all_gather 64M: 32 MiB per rank sent.
  EXPECT_EQ(needs.send, 64ULL << 20);
  EXPECT_EQ(needs.recv, 64ULL << 20);
  const auto& ar = plan.runs[0].points;
  // 16 MiB in 64 MiB buffers: offsets 0, 16, 32, 48 MiB -> 4 steps; 1 MiB: 64, capped at -n 20.
  EXPECT_EQ(fb::rotation_steps(ar[1], 4, needs, 20), 4u);
  EXPECT_EQ(fb::rotation_steps(ar[0], 4, needs, 20), 20u);
  EXPECT_EQ(fb::rotation_steps(ar[0], 4, needs, 5), 5u);
  EXPECT_EQ(fb::rotation_steps(ar[2], 4, needs, 20), 1u);  // the largest point stays put
  // all_gather 16M: receives 16 MiB (the larger buffer), sends 8 MiB: (64-16)/16+1 = 4 steps.
  const auto& ag = plan.runs[1].points;
  EXPECT_EQ(fb::rotation_steps(ag[1], 4, needs, 20), 4u);
  // A point larger than the buffers (never planned) does not move.
  fb::PointPlan huge = ar[2];
  huge.counts.send *= 2;
  EXPECT_EQ(fb::rotation_steps(huge, 4, needs, 20), 1u);
}

TEST(RunPlan, InAJobEachRankDrivesItsHostsNthGpu) {
  auto machine = h200_facts();
  machine.job_local_ranks = {0, 1, 0, 1};  // 2 hosts x 2 ranks
  auto o = opts({"all_reduce"});
  o.sizes = {"1M"};
  auto plan = plan_of(o, machine);
  EXPECT_EQ(plan.launcher, fb::LauncherKind::job);
  EXPECT_EQ(plan.gpus, (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(plan.nranks(), 4);
  EXPECT_EQ(fb::process_count(plan), 1);  // rank 0's own worker; the outside launcher started the others
  EXPECT_EQ(fb::assignment_for(plan, 3).devices, (std::vector<int>{1}));
  EXPECT_EQ(fb::assignment_for(plan, 3).ranks, (std::vector<int>{3}));
  o.gpus = "1";  // one GPU per host selected: GPU 0 on each
  machine.job_local_ranks = {0, 0};
  EXPECT_EQ(plan_of(o, machine).gpus, (std::vector<int>{0, 0}));
  o.gpus = "";
  machine.job_local_ranks = {0, 1, 2};  // three ranks on a host with two GPUs
  expect_usage_error([&] { plan_of(o, machine); }, "rank 2 is process 3 on its host");
  o.launcher = "threads";
  machine.job_local_ranks = {0, 1};
  expect_usage_error([&] { plan_of(o, machine); }, "drop --launcher threads");
  o.launcher = "processes";
  machine.job_command = "torchrun";
  o.request.settings.cpu_bind = fb::CpuBind::numa;
  expect_usage_error([&] { plan_of(o, machine); }, "under torchrun the ranks are bound by torchrun");
  o.request.settings.cpu_bind = fb::CpuBind::none;
  o.request.root = 3;  // ranks are the job's ranks: root 3 exists only with 4 of them
  o.collectives = {"broadcast"};
  expect_usage_error([&] { plan_of(o, machine); }, "-r/--root 3");
  machine.job_local_ranks = {0, 1, 0, 1};
  EXPECT_EQ(plan_of(o, machine).runs[0].root, 3);
}

TEST(RunPlan, JobLauncherSurvivesJson) {
  fb::Plan p;
  p.launcher = fb::LauncherKind::job;
  p.settings.alloc = fb::BufferAlloc::runtime;
  p.settings.fill = fb::BufferFill::zeros;
  p.gpus = {0, 1, 0, 1};
  fb::Plan back = nlohmann::json(p).get<fb::Plan>();
  EXPECT_EQ(back.launcher, fb::LauncherKind::job);
  EXPECT_EQ(fb::to_string(back.launcher), "job");
  EXPECT_EQ(back.settings.alloc, fb::BufferAlloc::runtime);
  EXPECT_EQ(back.settings.fill, fb::BufferFill::zeros);
  // A name this build does not know is an error, never a silent fallback to `processes`.
  auto j = nlohmann::json(p);
  j["launcher"] = "mpi";
  expect_usage_error([&] { (void)j.get<fb::Plan>(); }, "unknown launcher 'mpi'");
  j["launcher"] = "job";
  j["settings"]["alloc"] = "cudaMalloc";
  expect_usage_error([&] { (void)j.get<fb::Plan>(); }, "'cudaMalloc'");
}
