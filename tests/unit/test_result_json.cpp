#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "every_field_result.hpp"
#include "model/result_json.hpp"
#include "sample_result.hpp"

TEST(ResultJson, RoundTripKeepsEveryField) {
  const auto original = sample_result();
  const std::string text = nlohmann::json(original).dump();
  const auto back = fb::parse_result(text);
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(original));
  EXPECT_EQ(back.runs.at(0).points.at(1).wrong, -1);
  EXPECT_TRUE(std::isinf(back.runs.at(0).points.at(1).time_us.median_ci));
  EXPECT_EQ(back.host.comm.version_code, 22803);
  ASSERT_EQ(back.p2p.size(), 1u);
  EXPECT_DOUBLE_EQ(back.p2p[0].value, 394.2);
}

TEST(ResultJson, DocumentShape) {
  const auto j = nlohmann::json(sample_result());
  EXPECT_EQ(j.at("schema"), "fabricbench.result/1.6");
  const auto& p = j.at("runs").at(0).at("points").at(0);
  EXPECT_EQ(p.at("bytes"), 1048576);
  EXPECT_DOUBLE_EQ(p.at("time_us").at("median").get<double>(), 25.7);
  EXPECT_TRUE(j.at("runs").at(0).at("points").at(1).at("wrong").is_null());
  EXPECT_TRUE(j.at("runs").at(0).at("points").at(1).at("time_us").at("median_ci").is_null());
  EXPECT_EQ(j.at("p2p").at(0).at("test"), "ce_read");
  EXPECT_EQ(j.at("p2p").at(0).at("unit"), "GB/s");
}

TEST(ResultJson, MalformedInputIsAUsageError) {
  for (const char* bad :
       {"not json", "{}", R"({"schema":"fabricbench.result/1"})", R"({"schema":"other/9"})"}) {
    try {
      fb::parse_result(bad);
      ADD_FAILURE() << bad;
    } catch (const fb::Error& e) {
      EXPECT_EQ(e.code(), fb::ExitCode::usage) << bad;
    }
  }
}

// (a) Every field of a hand-written document arrives in its C++ field.
TEST(ResultJsonText, ParsesHeaderFields) {
  const auto r = fb::parse_result(kEveryFieldJson);
  EXPECT_EQ(r.schema, "fabricbench.result/1.6");
  EXPECT_EQ(r.tool.version, "9.8.7");
  EXPECT_EQ(r.tool.git, "f00dcafe");
  EXPECT_EQ(r.command, (std::vector<std::string>{"fabricbench", "doctor", "--quick"}));
  EXPECT_EQ(r.started, "2026-01-02T03:04:05Z");
  EXPECT_EQ(r.finished, "2026-01-02T03:09:10Z");
  EXPECT_EQ(r.status, fb::RunStatus::failed);
  EXPECT_EQ(r.failure, "rank 1 was killed");
  EXPECT_EQ(r.host.hostname, "node-7");
  EXPECT_EQ(r.host.driver, "12.9");
  EXPECT_EQ(r.host.runtime, "12.8");
  EXPECT_EQ(r.host.comm.name, "RCCL");
  EXPECT_EQ(r.host.comm.version, "2.21.5");
  EXPECT_EQ(r.host.comm.version_code, 22105);
  EXPECT_EQ(r.host.comm.path, "/opt/librccl.so");
  EXPECT_EQ(r.env, (std::map<std::string, std::string>{{"NCCL_ALGO", "Ring"}, {"NCCL_PROTO", "LL128"}}));
  ASSERT_EQ(r.gpus.size(), 1u);
  const auto& g = r.gpus[0];
  EXPECT_EQ(g.index, 3);
  EXPECT_EQ(g.rank, 4);
  EXPECT_EQ(g.name, "GPU-A");
  EXPECT_EQ(g.pci_bus_id, "0000:1B:00.0");
  EXPECT_EQ(g.memory_bytes, 85899345920ULL);
  EXPECT_EQ(g.compute_capability, 89);
  EXPECT_EQ(g.host, "node-8");
}

TEST(ResultJsonText, ParsesTopologyGpus) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_TRUE(r.topology.has_value());
  const auto& t = *r.topology;
  ASSERT_EQ(t.gpus.size(), 1u);
  const auto& g = t.gpus[0];
  EXPECT_EQ(g.index, 5);
  EXPECT_EQ(g.name, "GPU-B");
  EXPECT_EQ(g.vendor, "amd");
  EXPECT_EQ(g.bus_id, "0000:2c:00.0");
  EXPECT_EQ(g.device_id, "0x74a1");
  EXPECT_EQ(g.pci_path, (std::vector<std::string>{"pci0000:20", "0000:20:01.1", "0000:2c:00.0"}));
  EXPECT_EQ(g.numa_node, 6);
  EXPECT_EQ(g.cpulist, "48-95");
  EXPECT_DOUBLE_EQ(g.pcie.speed_gts, 16.0);
  EXPECT_DOUBLE_EQ(g.pcie.max_speed_gts, 32.0);
  EXPECT_EQ(g.pcie.width, 8);
  EXPECT_EQ(g.pcie.max_width, 16);
  EXPECT_EQ(g.pcie.gen, 4);
  EXPECT_EQ(g.pcie.max_gen, 5);
  ASSERT_EQ(g.links.size(), 1u);
  EXPECT_EQ(g.links[0].index, 2);
  EXPECT_TRUE(g.links[0].active);
  EXPECT_EQ(g.links[0].version, 4);
  EXPECT_EQ(g.links[0].remote, "0000:3d:00.0");
  EXPECT_EQ(g.links[0].remote_type, "switch");
  EXPECT_EQ(t.numa_cpulists, (std::map<int, std::string>{{0, "0-47"}, {1, "48-95"}}));
  EXPECT_EQ(t.sources, (std::vector<std::string>{"sysfs", "NVML"}));
  EXPECT_EQ(t.missing, (std::vector<std::string>{"rocm-smi: not installed"}));
}

TEST(ResultJsonText, ParsesTopologyPairs) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_EQ(r.topology->pairs.size(), 2u);
  const auto& p = r.topology->pairs[0];
  EXPECT_EQ(p.a, 5);
  EXPECT_EQ(p.b, 6);
  EXPECT_EQ(p.connection, fb::Connection::nvlink(12));
  EXPECT_EQ(p.pcie_class, "PXB");
  EXPECT_EQ(p.links, 12);
  EXPECT_DOUBLE_EQ(p.link_gbps, 25.0);
  EXPECT_DOUBLE_EQ(p.wire_gbps, 300.0);
  EXPECT_EQ(p.limit, "12 NVLink4 links");
  EXPECT_DOUBLE_EQ(p.sm_ceiling_gbps, 250.5);
  EXPECT_DOUBLE_EQ(p.ce_ceiling_gbps, 270.25);
  EXPECT_EQ(p.p2p, std::optional<bool>(true));
  EXPECT_EQ(p.p2p_detail, "NVML: OK");
  const auto& q = r.topology->pairs[1];
  EXPECT_EQ(q.connection, fb::Connection(fb::Connection::Kind::sys));
  EXPECT_FALSE(q.p2p.has_value());  // null: could not be read
}

TEST(ResultJsonText, ParsesRunAndPoints) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_EQ(r.runs.size(), 2u);
  const auto& run = r.runs[0];
  EXPECT_EQ(run.kind, fb::RunKind::scale);
  EXPECT_EQ(run.label, "worst");
  EXPECT_EQ(run.collective, "reduce");
  EXPECT_EQ(run.dtype, "bfloat16");
  EXPECT_EQ(run.op, "max");
  EXPECT_EQ(run.root, 1);
  EXPECT_EQ(run.gpus, (std::vector<int>{2, 0}));
  EXPECT_EQ(run.launcher, "threads");
  EXPECT_EQ(run.graph_launches, 7);
  EXPECT_EQ(run.alloc, "runtime");
  EXPECT_EQ(run.fill, "zeros");
  EXPECT_EQ(run.forced, (std::map<std::string, std::string>{{"NCCL_ALGO", "Tree"}}));
  EXPECT_EQ(run.failure, "out of memory");
  EXPECT_EQ(run.nccl_transports, (std::vector<std::string>{"P2P/CUMEM", "SHM"}));
  EXPECT_EQ(run.nccl_coll_channels, 24);
  EXPECT_EQ(run.nccl_p2p_channels, 32);
  EXPECT_EQ(run.nccl_nvls_channels, 16);
  EXPECT_EQ(run.nccl_nvls_available, true);
  EXPECT_EQ(run.nccl_network, "IBext_v8");
  ASSERT_TRUE(run.nccl_nics);
  EXPECT_EQ(run.nccl_nics->at(0), (fb::NcclNic{"IB", 0, "mlx5_0", 1, "RoCE", true, ""}));
  EXPECT_EQ(run.nccl_nics->at(1).address, "10.0.0.1<0>");
  ASSERT_EQ(run.points.size(), 2u);
  const auto& p = run.points[0];
  EXPECT_EQ(p.bytes, 2048u);
  EXPECT_EQ(p.count, 1024u);
  EXPECT_TRUE(p.in_place);
  EXPECT_DOUBLE_EQ(p.time_us.min, 1.5);
  EXPECT_DOUBLE_EQ(p.time_us.median, 2.5);
  EXPECT_DOUBLE_EQ(p.time_us.mean, 3.5);
  EXPECT_DOUBLE_EQ(p.time_us.p99, 4.5);
  EXPECT_DOUBLE_EQ(p.time_us.max, 5.5);
  EXPECT_DOUBLE_EQ(p.time_us.median_ci, 0.125);
  EXPECT_EQ(p.time_us.n, 9);
  EXPECT_DOUBLE_EQ(p.algbw_gbps, 11.25);
  EXPECT_DOUBLE_EQ(p.busbw_gbps, 22.5);
  EXPECT_EQ(p.wrong, 3);
  EXPECT_EQ(p.iters_per_batch, 40);
  EXPECT_EQ(p.nccl_algo, "RING");
  EXPECT_EQ(p.nccl_proto, "SIMPLE");
  EXPECT_EQ(p.nccl_channels, 16);
  ASSERT_TRUE(p.sampling.has_value());
  EXPECT_EQ(p.sampling->warmup_ops, 37);
  EXPECT_DOUBLE_EQ(p.sampling->warmup_ms, 31.5);
  EXPECT_DOUBLE_EQ(p.sampling->target_ci, 0.02);
  EXPECT_TRUE(p.sampling->ci_met);
  EXPECT_EQ(p.sampling->stop, "target");
  EXPECT_DOUBLE_EQ(p.sampling->first_batch_us, 2.75);
  EXPECT_DOUBLE_EQ(p.sampling->last_batch_us, 2.25);
  EXPECT_FALSE(r.runs[0].points[1].sampling.has_value());  // absent: sampled before it was kept
}

TEST(ResultJsonText, ParsesNullsAsTheirMeaning) {
  const auto r = fb::parse_result(kEveryFieldJson);
  const auto& p = r.runs[0].points[1];
  EXPECT_FALSE(p.in_place);
  EXPECT_TRUE(std::isinf(p.time_us.median_ci));  // null: unbounded interval
  EXPECT_EQ(p.wrong, -1);                        // null: not checked
  EXPECT_EQ(p.nccl_algo, "");                    // null: NCCL's choice not read
  EXPECT_EQ(p.nccl_channels, 0);
  const auto& algos = r.runs[1];
  EXPECT_EQ(algos.kind, fb::RunKind::algos);
  EXPECT_EQ(algos.op, "");  // null: the collective does not reduce
  EXPECT_EQ(algos.launcher, "mpi");
}

TEST(ResultJsonText, ParsesP2pAndFindings) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_EQ(r.p2p.size(), 2u);
  const auto& m = r.p2p[0];
  EXPECT_EQ(m.test, fb::P2pTest::sm_bidir);
  EXPECT_EQ(m.src, 1);
  EXPECT_EQ(m.dst, 2);
  EXPECT_EQ(m.unit, fb::P2pUnit::gbps);
  EXPECT_DOUBLE_EQ(m.value, 700.5);
  EXPECT_DOUBLE_EQ(m.min, 690.25);
  EXPECT_DOUBLE_EQ(m.max, 710.75);
  EXPECT_EQ(m.samples, 6);
  EXPECT_EQ(m.bytes, 1048576u);
  EXPECT_EQ(m.wrong, 0);
  EXPECT_DOUBLE_EQ(m.wire_gbps, 900.0);
  EXPECT_DOUBLE_EQ(m.ceiling_gbps, 780.0);
  EXPECT_EQ(m.note, "staged through host memory: no peer access");
  EXPECT_EQ(r.p2p[1].test, fb::P2pTest::host_latency);
  EXPECT_EQ(r.p2p[1].unit, fb::P2pUnit::ns);
  EXPECT_EQ(r.p2p[1].src, -1);
  EXPECT_EQ(r.p2p[1].wrong, -1);
  ASSERT_EQ(r.findings.size(), 2u);
  const auto& f = r.findings[0];
  EXPECT_EQ(f.code, "TOPO_NO_P2P");
  EXPECT_EQ(f.severity, fb::Severity::error);
  EXPECT_EQ(f.evidence, "GPU5 - GPU7");
  EXPECT_EQ(f.expected, "peer access");
  EXPECT_EQ(f.hint, "check ACS");
  EXPECT_EQ(r.findings[1].severity, fb::Severity::warning);
  ASSERT_TRUE(r.doctor.has_value());
  EXPECT_DOUBLE_EQ(r.doctor->budget_s, 45.5);
  ASSERT_EQ(r.doctor->cuts.size(), 1u);
  EXPECT_EQ(r.doctor->cuts[0].stage, "algorithms");
  EXPECT_EQ(r.doctor->cuts[0].what, "1 GiB points");
  EXPECT_EQ(r.doctor->cuts[0].why, "slow");
  ASSERT_EQ(r.doctor->stages.size(), 2u);
  EXPECT_EQ(r.doctor->stages[0].stage, "collectives");
  EXPECT_DOUBLE_EQ(r.doctor->stages[0].estimate_s, -1);
  EXPECT_EQ(r.doctor->stages[1].stage, "algorithms");
  EXPECT_DOUBLE_EQ(r.doctor->stages[1].estimate_s, 12.25);
  EXPECT_DOUBLE_EQ(r.doctor->stages[1].took_s, 14.75);
}

TEST(ResultJsonText, ParsesVerdictAndExpectations) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_TRUE(r.expectations.has_value());
  EXPECT_EQ(r.expectations->file, "site.json");
  ASSERT_EQ(r.expectations->rows.size(), 2u);
  const auto& e = r.expectations->rows[0];
  EXPECT_EQ(e.gpu, "H200");
  EXPECT_EQ(e.hosts, 2);
  EXPECT_EQ(e.max_bytes, 4096u);
  EXPECT_EQ(e.algo, "NVLS");
  EXPECT_DOUBLE_EQ(e.value, 380.5);
  EXPECT_EQ(e.kind, fb::ExpectationKind::acceptance);
  EXPECT_DOUBLE_EQ(e.tolerance, 0.25);
  EXPECT_TRUE(e.single_report);
  EXPECT_EQ(r.expectations->rows[1].max_bytes, fb::kAnyBytes);
  EXPECT_DOUBLE_EQ(r.expectations->rows[1].tolerance, -1);
  ASSERT_TRUE(r.verdict.has_value());
  EXPECT_EQ(r.verdict->status, fb::CheckStatus::critical);
  EXPECT_EQ(r.verdict->action, fb::CheckAction::drain);
  ASSERT_EQ(r.verdict->checks.size(), 2u);
  EXPECT_EQ(r.verdict->checks[0].codes, std::vector<std::string>{"TOPO_NO_P2P"});
  EXPECT_EQ(r.verdict->checks[1].status, fb::CheckStatus::unknown);
}

// (b) A result built in C++ serialises to exactly the hand-written document.
TEST(ResultJsonText, SerialisesToTheHandWrittenDocument) {
  const auto expected = nlohmann::json::parse(kEveryFieldJson);
  const auto written = nlohmann::json(every_field_result());
  EXPECT_EQ(written, expected) << "diff: " << nlohmann::json::diff(expected, written).dump(1);
}

TEST(ResultJsonText, NoTopologyIsNull) {
  auto r = every_field_result();
  r.topology.reset();
  EXPECT_TRUE(nlohmann::json(r).at("topology").is_null());
  EXPECT_FALSE(fb::parse_result(nlohmann::json(r).dump()).topology.has_value());
}

// Saved documents from before still load: re-serialised, each equals its file, except that
// fields older documents lack come back with their documented defaults and the version is this
// build's (they are all 1.0 documents: "fabricbench.result/1").
TEST(ResultJsonText, SavedDocumentsLoadAndReserialiseEqual) {
  for (const char* name :
       {"h200x2-combined", "h200x2-doctor-quick", "h200x2-run-6coll-1M-4G-procs", "synthetic-scale"}) {
    const auto text = fb::read_file(std::string(FB_FIXTURE_DIR) + "/results/" + name + ".json");
    auto expected = nlohmann::json::parse(text);
    EXPECT_EQ(expected.at("schema"), "fabricbench.result/1") << name;
    expected["schema"] = fb::kResultSchema;
    int defaulted = 0;
    if (!expected.at("host").contains("config")) expected["host"]["config"] = nullptr;  // before host facts
    if (expected.contains("doctor") && !expected.at("doctor").contains("stages"))       // before stage times
      expected["doctor"]["stages"] = nlohmann::json::array();
    for (auto& run : expected.at("runs")) {
      if (!run.contains("failure")) {
        run["failure"] = "";
        ++defaulted;
      }
      if (!run.contains("nccl_setup"))
        run["nccl_setup"] = {
            {"transports", nlohmann::json::array()}, {"coll_channels", 0}, {"p2p_channels", 0}};
      for (auto& p : run.at("points"))
        if (!p.contains("nccl")) p["nccl"] = nullptr;
    }
    if (std::string(name) == "h200x2-combined") EXPECT_GT(defaulted, 0) << "the old algos runs";
    const auto again = nlohmann::json(fb::parse_result(text));
    EXPECT_EQ(again, expected) << name << ": " << nlohmann::json::diff(expected, again).dump(1);
  }
}

// NCCL's set-up not in its log: 0 channels (NCCL never logs zero) and no 1.2 member, read back as
// "not in the log", not as zero.
TEST(ResultJson, NcclSetupNotInTheLogStaysUnread) {
  fb::Run run;
  const auto j = nlohmann::json(run).at("nccl_setup");
  EXPECT_EQ(j, nlohmann::json::parse(R"({"transports": [], "coll_channels": 0, "p2p_channels": 0})"));
  const auto back = nlohmann::json(run).get<fb::Run>();
  EXPECT_FALSE(back.nccl_coll_channels);
  EXPECT_FALSE(back.nccl_p2p_channels);
  EXPECT_FALSE(back.nccl_nvls_channels);
  EXPECT_FALSE(back.nccl_nvls_available);
  EXPECT_FALSE(back.nccl_nics);
  run.nccl_nvls_channels = 0;  // NVLS off: a fact, written
  run.nccl_nics = std::vector<fb::NcclNic>{};
  const auto off = nlohmann::json(run).at("nccl_setup");
  EXPECT_EQ(off.at("nvls_channels"), 0);
  EXPECT_EQ(off.at("nics"), nlohmann::json::array());
}
