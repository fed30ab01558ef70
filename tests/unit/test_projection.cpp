// The tensor-parallel projection against hand-computed cases: the layer's GEMM shapes, FLOPs,
// weight bytes and all_reduce bytes (Llama-3-70B), the roofline, the log-log interpolation of the
// all_reduce curve (synthetic and the real 2 x H200 fixture), speedup/efficiency and where
// adding GPUs stops paying, the usage errors, the JSON round trip and the console golden.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "golden.hpp"
#include "model/result_json.hpp"
#include "projection/model_presets.hpp"
#include "projection/scaling_answers.hpp"
#include "projection/tp_layer.hpp"
#include "projection/tp_projection.hpp"
#include "report/html/html_report.hpp"
#include "report/projection_console.hpp"

namespace {

const fb::ModelShape kLlama70b = fb::model_preset("llama-3-70b");

fb::AllReduceCurve curve2(std::vector<fb::CurvePoint> points) {
  fb::CurveSource s;
  s.gpus = 2;
  return {s, std::move(points)};
}

fb::ExitCode code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const fb::Error& e) {
    return e.code();
  }
  return fb::ExitCode::ok;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const fb::Error& e) {
    return e.what();
  }
  return "";
}

fb::ProjectionRequest llama_request(std::vector<int> tp, std::int64_t batch) {
  fb::ProjectionRequest q;
  q.model = kLlama70b;
  q.workload = {batch, 2048, 128};
  q.tp = std::move(tp);
  q.rates = {700, 4000, "--gemm-tflops/--hbm-gbps"};  // as the command line gives them
  return q;
}

}  // namespace

TEST(ProjectionLayer, Llama70bGemmShapesPerGpu) {
  // head_dim 128; TP=2: 32 query heads, 4 KV heads, half of the 28672-wide MLP.
  const auto g = fb::tp_layer_gemms(kLlama70b, 2, 8);
  EXPECT_EQ(g[0].n, (32 + 2 * 4) * 128);
  EXPECT_EQ(g[0].k, 8192);
  EXPECT_EQ(g[1].n, 8192);
  EXPECT_EQ(g[1].k, 32 * 128);
  EXPECT_EQ(g[2].n, 2 * 14336);
  EXPECT_EQ(g[3].k, 14336);
  EXPECT_EQ(g[3].m, 8);
  // TP=16 is past the 8 KV heads: each GPU keeps one KV head, 4 query heads.
  EXPECT_EQ(fb::tp_layer_gemms(kLlama70b, 16, 1)[0].n, (4 + 2 * 1) * 128);
}

TEST(ProjectionLayer, Llama70bFlopsAndWeightBytes) {
  // Weights per layer: 8192*10240 + 8192*8192 + 8192*57344 + 28672*8192 = 855,638,016 elements.
  EXPECT_DOUBLE_EQ(fb::layer_weight_bytes(kLlama70b, 1), 855638016.0 * 2);
  EXPECT_DOUBLE_EQ(fb::layer_weight_bytes(kLlama70b, 2), 427819008.0 * 2);
  EXPECT_DOUBLE_EQ(fb::layer_flops(kLlama70b, 1, 1), 2.0 * 855638016.0);
  EXPECT_DOUBLE_EQ(fb::layer_flops(kLlama70b, 2, 2048), 2.0 * 2048 * 427819008.0);
}

TEST(ProjectionLayer, AllReduceBytesAreTokensTimesHiddenTimesElement) {
  EXPECT_EQ(fb::allreduce_bytes(kLlama70b, 2048), 2048u * 8192u * 2u);  // 32 MiB
  EXPECT_EQ(fb::allreduce_bytes(kLlama70b, 1), 16384u);
  auto fp32 = kLlama70b;
  fp32.dtype = "fp32";
  EXPECT_EQ(fb::allreduce_bytes(fp32, 8), 8u * 8192u * 4u);
}

TEST(ProjectionLayer, RooflineTakesTheSlowerOfComputeAndMemory) {
  const fb::GemmShape decode{"attn_out", 1, 8192, 8192};
  // (8192*8192 weights + 1*(8192+8192) activations) * 2 B at 1000 GB/s = 134.250496 us.
  EXPECT_NEAR(fb::gemm_roofline_us(decode, 2, {1000, 1000, ""}), 134.250496, 1e-9);
  const fb::GemmShape prefill{"attn_out", 8192, 8192, 8192};
  // 2*8192^3 FLOP at 1000 TFLOP/s = 1099.511627776 us (memory: 402.6 us).
  EXPECT_NEAR(fb::gemm_roofline_us(prefill, 2, {1000, 1000, ""}), 1099.511627776, 1e-6);
}

TEST(ProjectionCurve, InterpolatesInLogLogSpace) {
  const auto c = curve2({{4 << 20, 20, 30}, {1 << 20, 10, 12}});
  EXPECT_DOUBLE_EQ(c.at(1 << 20).median_us, 10);  // a measured point is its own
  EXPECT_NEAR(c.at(2 << 20).median_us, 10 * std::sqrt(2.0), 1e-9);
  EXPECT_NEAR(c.at(2 << 20).tail_p99_us, std::sqrt(12.0 * 30.0), 1e-9);
  EXPECT_EQ(c.source().tail_points, 2);
}

TEST(ProjectionCurve, TheTailOnlyWhereMeasured) {
  // Tails at 2 and 8 MiB only: between them interpolated, outside them (1 and 16 MiB) not measured.
  const auto c = curve2({{1 << 20, 10, 0}, {2 << 20, 12, 20}, {8 << 20, 30, 45}, {16 << 20, 50, 0}});
  EXPECT_EQ(c.source().tail_points, 2);
  EXPECT_FALSE(c.at(1 << 20).tail_measured());
  EXPECT_FALSE(c.at(16 << 20).tail_measured());
  EXPECT_DOUBLE_EQ(c.at(2 << 20).tail_p99_us, 20);
  EXPECT_NEAR(c.at(4 << 20).tail_p99_us, std::sqrt(20.0 * 45.0), 1e-9);  // halfway in log
}

TEST(ProjectionCurve, ReadsTailsFromSingleOperationsNotBatches) {
  // The fake-hosts capture timed single operations (iterations); the 2 x H200 run did not.
  const auto r = result_fixture("h200x1-fakehosts-torchrun-2x1.json");
  const auto tails = fb::allreduce_curves(r);
  ASSERT_EQ(tails.count(2), 1u);
  const auto& point = r.runs.at(0).points.at(0);
  ASSERT_TRUE(point.iterations);
  EXPECT_EQ(tails.at(2).source().tail_points, 2);
  EXPECT_DOUBLE_EQ(tails.at(2).at(point.bytes).tail_p99_us, point.iterations->p99_us);
  const auto plain = fb::allreduce_curves(result_fixture("h200x2-run-6coll-1M-4G-procs.json"));
  EXPECT_EQ(plain.at(2).source().tail_points, 0);
  EXPECT_FALSE(plain.at(2).at(32 << 20).tail_measured());  // its batches' p99 is not a tail
}

TEST(ProjectionCurve, RefusesToExtrapolate) {
  const auto c = curve2({{1 << 20, 10, 12}, {4 << 20, 20, 30}});
  EXPECT_EQ(code_of([&] { (void)c.at(16384); }), fb::ExitCode::usage);
  EXPECT_NE(message_of([&] { (void)c.at(8 << 20); }).find("measure it"), std::string::npos);
  // The command it suggests takes the sizes as written (not "16 KiB", which reads as two words).
  EXPECT_NE(message_of([&] { (void)c.at(16384); }).find("-b 16K -e 4M --json"), std::string::npos)
      << message_of([&] { (void)c.at(16384); });
  EXPECT_EQ(code_of([&] { curve2({{1 << 20, 0, 1}}); }), fb::ExitCode::usage);
}

TEST(ProjectionCurve, ReadsTheRealTwoH200Curve) {
  const auto curves = fb::allreduce_curves(result_fixture("h200x2-run-6coll-1M-4G-procs.json"));
  ASSERT_EQ(curves.size(), 1u);
  const auto& c = curves.at(2);
  EXPECT_EQ(c.source().points, 6);
  // 32 MiB lies halfway (in log) between the 16 MiB (78.180 us) and 64 MiB (256.545 us) points.
  EXPECT_NEAR(c.at(32 << 20).median_us, std::sqrt(78.18000018596649 * 256.5448045730591), 1e-9);
}

fb::ProjectionPhase phase_of(const std::vector<std::pair<int, double>>& tp_ms) {
  fb::ProjectionPhase ph;
  ph.phase = "prefill";
  for (const auto& [tp, ms] : tp_ms) {
    fb::ProjectionRow r;
    r.tp = tp;
    r.pass_ms = ms;
    ph.rows.push_back(r);
  }
  return ph;
}

TEST(ProjectionScaling, SpeedupEfficiencyFastestAndCheapestThatPays) {
  auto ph = phase_of({{1, 10}, {2, 6}, {4, 5}, {8, 4.9}});
  fb::judge_scaling(ph, 0.5);
  EXPECT_NEAR(ph.rows[1].speedup, 10.0 / 6, 1e-12);
  EXPECT_NEAR(ph.rows[1].efficiency, 10.0 / 12, 1e-12);
  EXPECT_NEAR(ph.rows[2].efficiency, 0.5, 1e-12);
  // TP 1 -> 2 runs 1.67x faster where 1.5x pays. Over TP=2: TP=4 1.2x where 1.5x pays, TP=8 1.22x
  // where 2.5x pays: TP=2 is the cheapest that pays; TP=8 has the shortest pass.
  EXPECT_EQ(ph.best_tp, 2);
  EXPECT_EQ(ph.stops_paying_at_tp, 4);
  EXPECT_EQ(ph.fastest_tp, 8);
  ASSERT_EQ(ph.answers.size(), 2u);
  EXPECT_EQ(ph.answers[0].question, "fastest");
  EXPECT_EQ(ph.answers[0].tp, 8);
  EXPECT_EQ(ph.answers[1].question, "cheapest_that_pays");
  EXPECT_NE(ph.answers[1].words.find("TP=4 runs 1.20x as fast as TP=2 on 2x the GPUs, where 1.50x would pay"),
            std::string::npos)
      << ph.answers[1].words;
  EXPECT_NE(ph.answers[0].words.find("2.04x faster than TP=1"), std::string::npos) << ph.answers[0].words;
}

TEST(ProjectionScaling, ASlowSmallSubsetDoesNotHideALargerOneThatPays) {
  // TP=2 gains 1.2x (a ring of one link), TP=4 3.2x, TP=8 3.8x: over TP=1 TP=4 pays (3.2 >= 2.5); over
  // TP=4 TP=8 runs 1.19x where 1.5x pays. The step rule of pairs of neighbours would stop at TP=1.
  auto ph = phase_of({{1, 38}, {2, 38 / 1.2}, {4, 38 / 3.2}, {8, 10}});
  fb::judge_scaling(ph, 0.5);
  EXPECT_EQ(ph.best_tp, 4);
  EXPECT_EQ(ph.stops_paying_at_tp, 8);
  EXPECT_EQ(ph.fastest_tp, 8);
  // 3.8x at TP=8 is below half the ideal 8x (4.5x): TP=1 would be the answer without TP=4.
  auto two = phase_of({{1, 38}, {8, 10}});
  fb::judge_scaling(two, 0.5);
  EXPECT_EQ(two.best_tp, 1);
  EXPECT_EQ(two.fastest_tp, 8);
  EXPECT_NE(two.answers[1].words.find("where 4.50x would pay"), std::string::npos) << two.answers[1].words;
}

TEST(ProjectionComm, WithoutItsOwnCurveATpIsRefusedUnlessAssumed) {
  std::map<int, fb::AllReduceCurve> curves;
  curves.emplace(2, curve2({{1 << 20, 10, 12}, {4 << 20, 20, 30}}));
  EXPECT_NE(message_of([&] { (void)fb::allreduce_time(curves, {}, 8, 1 << 20, false); }).find("--assume"),
            std::string::npos);
  // --assume with nothing that bounds 8 GPUs: refused with the bound's own words (the flag that allows it).
  fb::CommBounds none{{8, {8, 0, "", {}, "", "pass --topo FILE"}}};
  const auto refused = message_of([&] { (void)fb::allreduce_time(curves, none, 8, 1 << 20, true); });
  EXPECT_NE(refused.find("nothing bounds one: pass --topo FILE"), std::string::npos) << refused;
  EXPECT_EQ(code_of([&] { (void)fb::allreduce_time(curves, {}, 8, 1 << 20, true); }), fb::ExitCode::usage);
}

TEST(ProjectionComm, BeyondOneHostNeverTheHostsOwnCurve) {
  std::map<int, fb::AllReduceCurve> curves;
  fb::CurveSource box;
  box.gpus = 8;  // one host's xGMI curve
  curves.emplace(8, fb::AllReduceCurve(box, {{16384, 14, 0}, {32 << 20, 244, 0}}));
  const fb::CommBounds bounds{{16, {16, 40, "given", {}, "--net-busbw", ""}}};
  // No curve across hosts: the network's figure alone, said to be a lower bound.
  const auto alone = fb::allreduce_time(curves, bounds, 16, 16384, true);
  EXPECT_EQ(alone.basis, "assumed");
  EXPECT_EQ(alone.curve_gpus, 0);
  EXPECT_DOUBLE_EQ(alone.time.median_us, fb::bandwidth_bound_us(16384, 16, 40));
  EXPECT_NEAR(alone.time.median_us, 16384 * 1.875 / 40e3, 1e-12);
  EXPECT_NE(alone.source.find("no other all_reduce measured across hosts"), std::string::npos)
      << alone.source;
  // A curve across hosts (4 GPUs on 2 hosts) gives the latency: 30 us x 1.875 / 1.5 = 37.5 us.
  fb::CurveSource across;
  across.gpus = 4;
  across.hosts = 2;
  curves.emplace(4, fb::AllReduceCurve(across, {{16384, 30, 0}, {32 << 20, 900, 0}}));
  const auto latency = fb::allreduce_time(curves, bounds, 16, 16384, true);
  EXPECT_EQ(latency.curve_gpus, 4);
  EXPECT_DOUBLE_EQ(latency.time.median_us, 30 * 1.875 / 1.5);
}

TEST(ProjectionComm, OwnCurveMeasuredElseTheBoundOrTheOtherCountsLatency) {
  std::map<int, fb::AllReduceCurve> curves;
  fb::CurveSource s8;
  s8.gpus = 8;
  curves.emplace(8, fb::AllReduceCurve(s8, {{16384, 14, 0}, {32 << 20, 244, 0}}));
  const fb::CommBounds bounds{{2, {2, 48, "subset_ceiling", {0, 1}, "one xGMI link", ""}},
                              {4, {4, 144, "subset_ceiling", {0, 1, 2, 3}, "three xGMI links", ""}}};
  EXPECT_EQ(fb::allreduce_time(curves, bounds, 8, 32 << 20, false).basis, "measured");
  // 32 MiB on 2 GPUs at 48 GB/s busbw: 33554432 x 1 / 48e9 s = 699.05 us (the 8-GPU curve at equal
  // busbw would give 244 x 1/1.75 = 139.4 us: a larger subset's figure, never used).
  const auto two = fb::allreduce_time(curves, bounds, 2, 32 << 20, true);
  EXPECT_EQ(two.basis, "bounded");
  EXPECT_EQ(two.curve_gpus, 0);  // the bound's time, no curve's
  EXPECT_NEAR(two.time.median_us, 33554432.0 / 48e9 * 1e6, 1e-9);
  EXPECT_FALSE(two.time.tail_measured());
  // 4 GPUs: 33554432 x 1.5 / 144e9 = 349.5 us.
  EXPECT_NEAR(fb::allreduce_time(curves, bounds, 4, 32 << 20, true).time.median_us,
              33554432.0 * 1.5 / 144e9 * 1e6, 1e-9);
  // 16 KiB: the bound allows 0.34 us; the 8-GPU curve's latency at equal busbw (14 / 1.75 = 8 us) is
  // slower: that time, marked assumed.
  const auto small = fb::allreduce_time(curves, bounds, 2, 16384, true);
  EXPECT_EQ(small.basis, "assumed");
  EXPECT_DOUBLE_EQ(small.time.median_us, 14 / 1.75);
  EXPECT_EQ(small.curve_gpus, 8);
  EXPECT_DOUBLE_EQ(small.bound_gbps, 48);
}

fb::CommInputs curves_of(const fb::Result& r) { return {fb::allreduce_curves(r), {}}; }

TEST(ProjectionScaling, WholeProjectionFromTheH200Fixture) {
  const auto curves = curves_of(result_fixture("h200x2-run-6coll-1M-4G-procs.json"));
  const auto p = fb::project_tensor_parallel(llama_request({2}, 64), curves);
  ASSERT_EQ(p.phases.size(), 2u);
  const auto& decode = p.phases[1].rows;
  ASSERT_EQ(decode.size(), 2u);
  EXPECT_EQ(decode[1].allreduce_bytes, 1u << 20);  // 64 tokens x 8192 x 2 B: the curve's first point
  EXPECT_DOUBLE_EQ(decode[1].comm_us, 2 * 15.227999538183212);
  EXPECT_DOUBLE_EQ(decode[1].layer_us, decode[1].compute_us + decode[1].comm_us);
  EXPECT_NEAR(decode[1].pass_ms, decode[1].layer_us * 80 / 1e3, 1e-12);
  EXPECT_NEAR(decode[1].tokens_per_s, 64 / (decode[1].pass_ms / 1e3), 1e-9);
  EXPECT_NEAR(decode[1].speedup, decode[0].pass_ms / decode[1].pass_ms, 1e-12);
  EXPECT_EQ(decode[0].comm_us, 0);
  EXPECT_EQ(decode[1].comm_basis, "measured");
  EXPECT_EQ(decode[1].tail, "not measured");  // the run has no single-operation tails
  EXPECT_EQ(decode[1].comm_p99_us, 0);
  EXPECT_EQ(decode[1].pass_p99_ms, 0);
  EXPECT_EQ(decode[0].tail, "none");
}

TEST(ProjectionScaling, MeasuredTailsFlowIntoTheP99Columns) {
  const auto r = result_fixture("h200x1-fakehosts-torchrun-2x1.json");  // tails at 1 MiB and 64 MiB
  auto q = llama_request({2}, 64);                                      // decode: 64 x 8192 x 2 B = 1 MiB
  q.workload.prompt = 64;                                               // prefill: 64 x 64 tokens = 64 MiB
  const auto p = fb::project_tensor_parallel(q, curves_of(r));
  const auto& row = p.phases[1].rows[1];
  EXPECT_EQ(row.tail, "measured");
  EXPECT_DOUBLE_EQ(row.comm_p99_us, 2 * r.runs[0].points[0].iterations->p99_us);
  EXPECT_DOUBLE_EQ(row.layer_p99_us, row.compute_us + row.comm_p99_us);
  EXPECT_NEAR(row.pass_p99_ms, row.layer_p99_us * 80 / 1e3, 1e-12);
}

TEST(ProjectionErrors, BadInputIsAUsageError) {
  const auto curves = curves_of(result_fixture("h200x2-run-6coll-1M-4G-procs.json"));
  auto zero = llama_request({2}, 64);
  zero.model.hidden = 0;
  EXPECT_EQ(code_of([&] { fb::project_tensor_parallel(zero, curves); }), fb::ExitCode::usage);
  auto negative = llama_request({2}, -1);
  EXPECT_EQ(code_of([&] { fb::project_tensor_parallel(negative, curves); }), fb::ExitCode::usage);
  EXPECT_NE(message_of([&] { fb::check_tp_degree(kLlama70b, 3); }).find("64 attention heads"),
            std::string::npos);
  // TP=4 with a curve of 2 GPUs only, and no --assume.
  EXPECT_EQ(code_of([&] { fb::project_tensor_parallel(llama_request({4}, 64), curves); }),
            fb::ExitCode::usage);
  // Decode at batch 1 is a 16 KiB all_reduce: below the fixture's 1 MiB, so measure it.
  EXPECT_EQ(code_of([&] { fb::project_tensor_parallel(llama_request({2}, 1), curves); }),
            fb::ExitCode::usage);
}

TEST(ProjectionReport, ConsoleGoldenJsonRoundTripAndChart) {
  auto r = result_fixture("h200x2-run-6coll-1M-4G-procs.json");
  auto q = llama_request({2, 4}, 64);
  q.assume = true;  // TP=4 bounded at 373.5 GB/s (given here as the ceiling an NVSwitch ring of 4 H200 has)
  fb::CommInputs comm = curves_of(r);
  comm.bounds[4] = {4, 373.5, "subset_ceiling", {0, 1, 2, 3}, "NVLink4's measured share (given in the test)",
                    ""};
  r.projection = fb::project_tensor_parallel(q, comm);
  expect_golden("projection_llama70b.txt", fb::projection_table(*r.projection));
  const auto back = fb::parse_result(nlohmann::json(r).dump());
  ASSERT_TRUE(back.projection);
  EXPECT_EQ(back.projection->phases[1].rows[1].allreduce_bytes, 1u << 20);
  EXPECT_EQ(nlohmann::json(back).dump(), nlohmann::json(r).dump());
  EXPECT_NE(fb::html_report(r, nullptr).find("data-chart=\"projection-speedup\""), std::string::npos);
}
