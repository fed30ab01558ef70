#pragma once
// Expects `f()` to throw fb::Error with exit code `code` and a message containing `needle`.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/error.hpp"

template <typename F>
void expect_error(F&& f, fb::ExitCode code, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// The same for the usage errors (exit 2) that bad command lines and files raise.
template <typename F>
void expect_usage_error(F&& f, const std::string& needle) {
  expect_error(std::forward<F>(f), fb::ExitCode::usage, needle);
}
