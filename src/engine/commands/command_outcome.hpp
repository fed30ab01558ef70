#pragma once
// What every measuring command's engine entry (engine/*_measurement.hpp, engine/doctor/doctor.hpp) shares:
// how the document is handed over while it grows, and how the command ends. app/ binds the
// callbacks to its reporters; the engine writes nothing itself.
#include <cstddef>
#include <functional>

#include "core/error.hpp"
#include "model/result.hpp"

namespace fb {

struct ResultProgress {
  std::function<void(const Result&)> begun;  // header, GPUs and topology known, before any measuring
  std::function<void(const Result&, std::size_t run, std::size_t point)> point;  // a point was added
  // The document is final (also when the command failed or was interrupted); what must wait for
  // it to be written (ending a whole job) comes after.
  std::function<void(const Result&)> ended;
};

struct CommandOutcome {
  Result result;
  ExitCode code = ExitCode::ok;
};

}  // namespace fb
