#pragma once
// What the reporter and document tests share: the result documents of tests/fixtures/results,
// and output checked against a golden file of tests/golden (FB_UPDATE_GOLDEN=1 rewrites them;
// review the diff).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "core/file_io.hpp"
#include "model/result_json.hpp"

inline fb::Result result_fixture(const std::string& name) {
  return fb::parse_result(fb::read_file(std::string(FB_FIXTURE_DIR) + "/results/" + name));
}

inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(FB_GOLDEN_DIR) + "/" + name;
  if (std::getenv("FB_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path) << actual;
    return;
  }
  EXPECT_EQ(actual, fb::read_file(path)) << "golden file " << path;
}
