#pragma once
// Reporters turn the result document into output as it grows. They never measure.
#include <memory>
#include <vector>

#include "model/result.hpp"

namespace fb {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void begin(const Result& /*result*/) {}
  // result.runs[run].points[point] was just added.
  virtual void point(const Result& /*result*/, std::size_t /*run*/, std::size_t /*point*/) {}
  virtual void end(const Result& /*result*/) {}
};

// Fans every call out to several reporters.
class ReporterSet final : public Reporter {
 public:
  void add(std::unique_ptr<Reporter> r) { reporters_.push_back(std::move(r)); }
  void begin(const Result& result) override {
    for (auto& r : reporters_) r->begin(result);
  }
  void point(const Result& result, std::size_t run, std::size_t point) override {
    for (auto& r : reporters_) r->point(result, run, point);
  }
  void end(const Result& result) override {
    for (auto& r : reporters_) r->end(result);
  }

 private:
  std::vector<std::unique_ptr<Reporter>> reporters_;
};

}  // namespace fb
