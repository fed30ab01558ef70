#pragma once
// `fabricbench doctor`: the whole check of a machine, stage after stage (engine/doctor/doctor_stages.hpp),
// the verdicts at the end. Hands the document over through `DoctorProgress`; says
// where it stands through events; writes nothing itself.
#include <functional>
#include <string>
#include <vector>

#include "core/events.hpp"
#include "engine/doctor/doctor_stages.hpp"
#include "model/result.hpp"
#include "request/command_requests.hpp"

namespace fb {

struct DoctorProgress {
  std::function<void(const Result&)> begun;    // header, GPUs, topology and its findings known
  std::function<void(const Result&)> updated;  // after every stage, also the one that failed
};

// The finished document (status complete, findings from every rule). A failed stage leaves
// the document with status "failed" (seen by `updated`) and throws Error with its exit code.
// Ctrl-C (core/interrupt.hpp) ends the stage running and returns the document so far, with
// status "failed" and failure "interrupted during the ... stage".
// How many stages run and about how long in all, each stage as it begins (with its estimate and
// the time so far), each cut made to stay in the budget, and what the stages that measure say
// besides (the workers' warnings, the scaling groups) go to `events`.
Result run_doctor(const DoctorRequest& request, const std::vector<std::string>& command_line,
                  const DoctorProgress& progress, EventSink& events);

}  // namespace fb
