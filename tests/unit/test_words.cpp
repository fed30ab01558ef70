// The closed vocabularies: each enum's one table of names, the pair connection, the p2p test table.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/error.hpp"
#include "model/connection.hpp"
#include "model/p2p_tests.hpp"
#include "model/result.hpp"
#include "model/result_json.hpp"

namespace {

template <typename E>
std::vector<std::string> json_names() {
  std::vector<std::string> out;
  for (const auto& row : fb::EnumNames<E>::table) out.push_back(nlohmann::json(row.id).get<std::string>());
  return out;
}

template <typename E>
void expect_usage_error(const char* text) {
  try {
    nlohmann::json(text).get<E>();
    ADD_FAILURE() << text << " was accepted";
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage) << text;
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

}  // namespace

// The strings are the schema's (docs/result-schema.md): they must not change.
TEST(Words, JsonStringsAreTheSchemas) {
  using V = std::vector<std::string>;
  EXPECT_EQ(json_names<fb::RunKind>(), (V{"collective", "algos", "scale"}));
  EXPECT_EQ(json_names<fb::Severity>(), (V{"info", "warning", "error"}));
  EXPECT_EQ(json_names<fb::RunStatus>(), (V{"running", "complete", "failed", "refused"}));  // refused: 1.4
  EXPECT_EQ(json_names<fb::P2pUnit>(), (V{"GB/s", "ns"}));
  EXPECT_EQ(json_names<fb::P2pTest>(),
            (V{"ce_read", "ce_write", "sm_read", "sm_write", "ce_bidir", "sm_bidir", "latency", "h2d", "d2h",
               "h2d_all", "d2h_all", "host_latency", "h2d_sm", "d2h_sm", "local_copy"}));
}

TEST(Words, ParseIsTheInverseOfPrint) {
  EXPECT_EQ(nlohmann::json("scale").get<fb::RunKind>(), fb::RunKind::scale);
  EXPECT_EQ(nlohmann::json("error").get<fb::Severity>(), fb::Severity::error);
  EXPECT_EQ(nlohmann::json("complete").get<fb::RunStatus>(), fb::RunStatus::complete);
  EXPECT_EQ(nlohmann::json("ns").get<fb::P2pUnit>(), fb::P2pUnit::ns);
  EXPECT_EQ(nlohmann::json("d2h_all").get<fb::P2pTest>(), fb::P2pTest::d2h_all);
  EXPECT_EQ(fmt::format("[{:<8}]", fb::Severity::warning), "[warning ]");
}

TEST(Words, UnknownWordsAreUsageErrors) {
  expect_usage_error<fb::RunKind>("Collective");
  expect_usage_error<fb::Severity>("fatal");
  expect_usage_error<fb::RunStatus>("done");
  expect_usage_error<fb::P2pUnit>("GiB/s");
  expect_usage_error<fb::P2pTest>("ce_copy");
  expect_usage_error<fb::Connection>("NV");
  expect_usage_error<fb::Connection>("NVx");
  expect_usage_error<fb::Connection>("NV0");
  expect_usage_error<fb::Connection>("nv18");
  expect_usage_error<fb::Connection>("");
}

TEST(Words, ConnectionsPrintAsNvidiaSmiDoes) {
  for (const char* text : {"NV18", "NV4", "XGMI", "PIX", "PXB", "PHB", "NODE", "SYS", "?"}) {
    const auto c = nlohmann::json(text).get<fb::Connection>();
    EXPECT_EQ(c.to_string(), text);
    EXPECT_EQ(nlohmann::json(c), text);
    EXPECT_EQ(fmt::format("{}", c), text);
  }
  EXPECT_EQ(fb::Connection::parse("NV18"), fb::Connection::nvlink(18));
  EXPECT_EQ(fb::Connection::parse("NV18")->nvlinks(), 18);
  EXPECT_NE(fb::Connection::nvlink(18), fb::Connection::nvlink(12));
  EXPECT_EQ(fb::Connection::parse("PXB")->kind(), fb::Connection::Kind::pxb);
  EXPECT_EQ(fb::Connection().to_string(), "?");
}

TEST(Words, OnlyNvlinkAndXgmiAreTheGpuFabric) {
  std::set<std::string> fabric;
  for (const char* text : {"NV18", "NV1", "XGMI", "PIX", "PXB", "PHB", "NODE", "SYS", "?"})
    if (fb::Connection::parse(text)->is_gpu_fabric()) fabric.insert(text);
  EXPECT_EQ(fabric, (std::set<std::string>{"NV1", "NV18", "XGMI"}));
}

TEST(Words, HasErrorFindingLooksAtSeverityOnly) {
  std::vector<fb::Finding> f{{"A", fb::Severity::warning, "", "", ""}, {"B", fb::Severity::info, "", "", ""}};
  EXPECT_FALSE(fb::has_error_finding(f));
  EXPECT_FALSE(fb::has_error_finding({}));
  f.push_back({"C", fb::Severity::error, "", "", ""});
  EXPECT_TRUE(fb::has_error_finding(f));
}

TEST(Words, FindPairTakesEitherOrder) {
  fb::Topology t;
  t.pairs.resize(2);
  t.pairs[0].a = 0;
  t.pairs[0].b = 1;
  t.pairs[1].a = 1;
  t.pairs[1].b = 2;
  EXPECT_EQ(t.find_pair(0, 1), &t.pairs[0]);
  EXPECT_EQ(t.find_pair(2, 1), &t.pairs[1]);
  EXPECT_EQ(t.find_pair(0, 2), nullptr);
  t.gpus.resize(2);
  t.gpus[1].index = 7;
  EXPECT_EQ(t.find_gpu(7), &t.gpus[1]);
  EXPECT_EQ(t.find_gpu(3), nullptr);
}

// The facts bench/ measures by and analyse/ judges by, one row each (nvbandwidth's names in
// brackets: memcpy_ce = copy engine, memcpy_sm = SM kernel).
TEST(Words, P2pTestTable) {
  using fb::P2pTest;
  const auto& read = fb::p2p_test_spec(P2pTest::ce_read);  // device_to_device_memcpy_read_ce
  EXPECT_EQ(read.copier, fb::P2pCopier::copy_engine);
  EXPECT_EQ(read.issuer, fb::P2pIssuer::destination);
  EXPECT_EQ(read.ceiling, fb::P2pCeiling::copy_engine);
  const auto& write = fb::p2p_test_spec(P2pTest::sm_write);  // device_to_device_memcpy_write_sm
  EXPECT_EQ(write.copier, fb::P2pCopier::sm);
  EXPECT_EQ(write.issuer, fb::P2pIssuer::source);
  EXPECT_EQ(write.ceiling, fb::P2pCeiling::sm);
  std::set<std::string> bidirectional, every_gpu, in_ns, no_ceiling, peer;
  for (const auto& t : fb::kP2pTests) {
    const std::string name(t.name);
    if (t.bidirectional) bidirectional.insert(name);
    if (t.every_gpu) every_gpu.insert(name);
    if (t.unit == fb::P2pUnit::ns) in_ns.insert(name);
    if (t.ceiling == fb::P2pCeiling::none) no_ceiling.insert(name);
    if (t.path == fb::P2pPath::peer) peer.insert(name);
  }
  using S = std::set<std::string>;
  EXPECT_EQ(bidirectional, (S{"ce_bidir", "sm_bidir"}));
  EXPECT_EQ(every_gpu, (S{"h2d_all", "d2h_all"}));
  EXPECT_EQ(in_ns, (S{"latency", "host_latency"}));
  EXPECT_EQ(no_ceiling, (S{"latency", "h2d", "d2h", "h2d_all", "d2h_all", "host_latency", "h2d_sm", "d2h_sm",
                           "local_copy"}));
  EXPECT_EQ(peer, (S{"ce_read", "ce_write", "sm_read", "sm_write", "ce_bidir", "sm_bidir", "latency"}));
  EXPECT_EQ(fb::p2p_test_spec(P2pTest::d2h).path, fb::P2pPath::gpu_to_host);
  EXPECT_EQ(fb::p2p_test_spec(P2pTest::host_latency).path, fb::P2pPath::host_to_gpu);
  // nvbandwidth's host_to_device_memcpy_sm / device_to_host_memcpy_sm: the GPU's kernel copies.
  EXPECT_EQ(fb::p2p_test_spec(P2pTest::h2d_sm).copier, fb::P2pCopier::sm);
  EXPECT_EQ(fb::p2p_test_spec(P2pTest::d2h_sm).path, fb::P2pPath::gpu_to_host);
  EXPECT_EQ(fb::p2p_test_spec(P2pTest::local_copy).path, fb::P2pPath::local);  // device_local_copy
  EXPECT_TRUE(fb::over_host_link(P2pTest::h2d_sm));
  EXPECT_FALSE(fb::over_host_link(P2pTest::local_copy));
  EXPECT_FALSE(fb::over_host_link(P2pTest::ce_read));
}
