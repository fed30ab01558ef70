#include "engine/doctor/doctor_failure.hpp"

#include <fmt/format.h>

#include "analyse/judge.hpp"
#include "core/environment.hpp"
#include "engine/machine/result_header.hpp"
#include "topo/host_probe.hpp"
#include "topo/machine_probe.hpp"

namespace fb {

Result doctor_failure_header(const std::vector<std::string>& command_line) {
  Result r = make_result_header(command_line, nullptr, false);  // no runtime: it may be what failed
  try {
    TopologySources sources;
    sources.use_runtime = false;
    r.topology = probe_topology(sources);
    r.host.config = probe_host("/", r.topology->gpus);
  } catch (const std::exception&) {  // what could not be read stays absent: the verdict says UNKNOWN
  }
  return r;
}

Result failed_doctor_result(Result doc, const std::string& failure) {
  // A stage that failed, or a preflight that refused the job, has said so in the document already, in
  // its own words (the stage, the host): a refused job is the job's configuration, not a failed host.
  if (doc.status != RunStatus::failed && doc.status != RunStatus::refused) {
    doc.status = RunStatus::failed;
    doc.failure = failure;
  }
  doc.finished = now_iso8601();
  judge(doc);  // each host's section too
  return doc;
}

Result unfinished_doctor_result(const Result& begun) {
  Result r = failed_doctor_result(
      begun, fmt::format("the doctor began at {} and has not finished: if this stays, it crashed, was killed "
                         "or ran past the scheduler's time limit (the doctor replaces this when it ends)",
                         begun.started));
  r.finished.clear();  // not finished: the textfile's timestamp is when it began
  return r;
}

}  // namespace fb
