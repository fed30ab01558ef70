#pragma once
// What the import tests share: a fixture of tests/fixtures/imports read as `report` reads it, and the
// point of a size in a run (tests/fixtures/imports/README.md names each fixture's source and truth).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "ingest/import_file.hpp"
#include "model/result.hpp"

inline const std::string kImportsDir = std::string(FB_FIXTURE_DIR) + "/imports/";

inline fb::Result import_fixture(const std::string& name, const fb::ImportOptions& o = {}) {
  return fb::load_result_or_output(kImportsDir + name, o);
}

inline fb::ImportOptions with_gpu(const std::string& gpu) {
  fb::ImportOptions o;
  o.gpu = gpu;
  return o;
}

inline const fb::Point& point_at(const fb::Run& run, std::uint64_t bytes, bool in_place = false) {
  for (const auto& p : run.points)
    if (p.bytes == bytes && p.in_place == in_place) return p;
  throw std::runtime_error("no point of " + std::to_string(bytes) + " B");
}

inline bool any_contains(const std::vector<std::string>& list, const std::string& part) {
  return std::any_of(list.begin(), list.end(),
                     [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

constexpr std::uint64_t kGiB = 1ULL << 30;
constexpr std::uint64_t kMiB = 1ULL << 20;
