#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "core/result_json.hpp"
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
  EXPECT_EQ(j.at("schema"), "fabricbench.result/1");
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
