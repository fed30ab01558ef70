// The result document's version rule (model/result_version.hpp): any minor of this build's major
// reads, a later minor's unknown members are ignored, anything else is refused in one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "expect_error.hpp"
#include "model/result_json.hpp"
#include "model/result_version.hpp"

namespace {

using fb::SchemaVersion;
using nlohmann::json;

std::optional<SchemaVersion> parsed(const char* text) { return fb::parse_schema_version(text); }

json fixture(const std::string& name) {
  return json::parse(fb::read_file(std::string(FB_FIXTURE_DIR) + "/results/" + name));
}

// The message check_result_schema gives for `schema`; empty when it reads.
std::string refusal(const json& schema) {
  try {
    fb::check_result_schema(schema);
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
    return e.what();
  }
  return {};
}

}  // namespace

TEST(ResultVersion, ParsesMajorAndMinor) {
  EXPECT_EQ(parsed("fabricbench.result/1"), (SchemaVersion{1, 0}));  // before minors existed
  EXPECT_EQ(parsed("fabricbench.result/1.0"), (SchemaVersion{1, 0}));
  EXPECT_EQ(parsed("fabricbench.result/1.7"), (SchemaVersion{1, 7}));
  EXPECT_EQ(parsed("fabricbench.result/2.0"), (SchemaVersion{2, 0}));
  EXPECT_EQ(parsed("fabricbench.result/12.345"), (SchemaVersion{12, 345}));
}

TEST(ResultVersion, MalformedIsNotAVersion) {
  for (const char* bad :
       {"fabricbench.result/1.x", "other/1.0", "", "fabricbench.result/", "fabricbench.result",
        "fabricbench.result1.0", "fabricbench.result/.1", "fabricbench.result/1.", "fabricbench.result/1.0.0",
        "fabricbench.result/-1", "fabricbench.result/+1", "fabricbench.result/ 1", "fabricbench.result/1 ",
        "FABRICBENCH.RESULT/1", "fabricbench.result/99999999999", "fabricbench.result/1/1"})
    EXPECT_EQ(parsed(bad), std::nullopt) << bad;
}

TEST(ResultVersion, ThisBuildWritesItsOwnVersion) {
  EXPECT_EQ(parsed(fb::kResultSchema), fb::kResultVersion);
}

TEST(ResultVersion, EveryMinorOfTheMajorReads) {
  for (const char* ok :
       {"fabricbench.result/1", "fabricbench.result/1.0", "fabricbench.result/1.1", "fabricbench.result/1.2",
        "fabricbench.result/1.3", "fabricbench.result/1.7", "fabricbench.result/1.999"})
    EXPECT_EQ(refusal(ok), "") << ok;
}

TEST(ResultVersion, RefusalSaysWhatTheFileHasAndWhatThisBuildReads) {
  const std::string reads = "this build reads fabricbench.result/1.x (any minor of version 1; it writes 1.6)";
  EXPECT_EQ(refusal("fabricbench.result/2.0"),
            "$.schema: unsupported result schema \"fabricbench.result/2.0\" (version 2.0): " + reads);
  EXPECT_EQ(refusal("fabricbench.result/0.9"),
            "$.schema: unsupported result schema \"fabricbench.result/0.9\" (version 0.9): " + reads);
  EXPECT_EQ(refusal("fabricbench.result/1.x"),
            "$.schema: unsupported result schema \"fabricbench.result/1.x\" "
            "(not fabricbench.result/MAJOR.MINOR): " +
                reads);
  EXPECT_EQ(
      refusal("other/1.0"),
      "$.schema: unsupported result schema \"other/1.0\" (not fabricbench.result/MAJOR.MINOR): " + reads);
  EXPECT_EQ(refusal(json()),
            "$.schema: unsupported result schema (none) (not fabricbench.result/MAJOR.MINOR): " + reads);
  EXPECT_EQ(refusal(7),
            "$.schema: unsupported result schema 7 (not fabricbench.result/MAJOR.MINOR): " + reads);
}

TEST(ResultVersion, RefusalIsOneShortLine) {
  const std::string message = refusal(std::string(10000, 'x') + "\n2.0");
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_LT(message.size(), 300u) << message;
}

TEST(ResultVersion, DocumentOfAnotherMajorIsAUsageError) {
  auto doc = fixture("h200x1-doctor.json");
  doc["schema"] = "fabricbench.result/2.0";
  expect_usage_error([&] { fb::parse_result(doc.dump()); },
                     "(version 2.0): this build reads fabricbench.result/1.x");
  doc.erase("schema");
  expect_usage_error([&] { fb::parse_result(doc.dump()); }, "$.schema: unsupported result schema (none)");
}

// A document of a later minor, with members this build does not know at every level, reads as
// the same document without them.
TEST(ResultVersion, LaterMinorReadsIgnoringUnknownMembers) {
  for (const char* name : {"h200x1-doctor.json", "h200x2-doctor-quick.json"}) {
    const auto original = fixture(name);
    auto later = original;
    later["schema"] = "fabricbench.result/1.7";
    later["future_section"] = {{"anything", {1, 2, 3}}};
    later["host"]["future_fact"] = "x";
    later["gpus"][0]["future_field"] = 1.5;
    later["topology"]["gpus"][0]["future_field"] = json::object();
    later["p2p"][0]["future_field"] = "y";
    later["findings"].push_back({{"code", "X"},
                                 {"severity", "info"},
                                 {"evidence", ""},
                                 {"expected", ""},
                                 {"hint", ""},
                                 {"future_field", true}});
    auto expected = original;
    expected["findings"].push_back(
        {{"code", "X"}, {"severity", "info"}, {"evidence", ""}, {"expected", ""}, {"hint", ""}});
    if (!later["runs"].empty()) {
      later["runs"][0]["future_field"] = 2;
      later["runs"][0]["points"][0]["future_field"] = {{"nested", 1}};
      later["runs"][0]["points"][0]["time_us"]["future_field"] = 3;
    }
    if (later["host"]["config"].is_object()) later["host"]["config"]["future_fact"] = {{"value", "1"}};
    EXPECT_EQ(json(fb::parse_result(later.dump())), json(fb::parse_result(expected.dump()))) << name;
  }
}

TEST(ResultVersion, RewrittenOldDocumentSaysThisBuildsVersion) {
  const auto doc = fixture("h200x1-doctor.json");
  ASSERT_EQ(doc.at("schema"), "fabricbench.result/1");  // the 1.0 fixture (tests/fixtures/results/README.md)
  EXPECT_EQ(json(fb::parse_result(doc.dump())).at("schema"), fb::kResultSchema);
}
