#pragma once
// `fabricbench doctor`: the whole check of a machine, stage after stage (engine/doctor_stages.hpp),
// the verdicts at the end. Reports through `DoctorProgress`; writes nothing itself.
#include <functional>
#include <string>
#include <vector>

#include "core/events.hpp"
#include "engine/doctor_stages.hpp"
#include "model/result.hpp"
#include "request/command_requests.hpp"

namespace fb {

struct DoctorProgress {
  std::function<void(const Result&)> begun;  // header, GPUs, topology and its findings known
  // Before the first stage: how many will run and about how long they take in all.
  std::function<void(int stages, double estimate_s)> planned;
  // Before a stage runs: about how long it takes (measured speed, or the row's figure).
  std::function<void(const DoctorStage& stage, int number, int total, const std::string& estimate)> stage;
  std::function<void(const DoctorCut& cut)> cut;  // each cut, before its stage runs
  std::function<void(const Result&)> updated;     // after every stage, also the one that failed
};

// The finished document (status complete, findings from every rule). A failed stage leaves
// the document with status "failed" (seen by `updated`) and throws Error with its exit code.
// Ctrl-C (core/interrupt.hpp) ends the stage running and returns the document so far, with
// status "failed" and failure "interrupted during the ... stage".
// What the stages that measure say besides (the workers' warnings, the scaling groups) goes to
// `events`.
Result run_doctor(const DoctorRequest& request, const std::vector<std::string>& command_line,
                  const DoctorProgress& progress, EventSink& events);

}  // namespace fb
