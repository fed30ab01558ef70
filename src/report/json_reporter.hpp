#pragma once
// Writes the whole result document after every point, so that a run that dies keeps what it
// measured. The file is replaced atomically (write to a temporary, then rename).
#include <string>

#include "report/reporter.hpp"

namespace fb {

class JsonReporter final : public Reporter {
 public:
  explicit JsonReporter(std::string path) : path_(std::move(path)) {}
  void begin(const Result& result) override { write(result); }
  void point(const Result& result, std::size_t, std::size_t) override { write(result); }
  void end(const Result& result) override { write(result); }

 private:
  void write(const Result& result) const;
  std::string path_;
};

}  // namespace fb
