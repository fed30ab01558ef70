#pragma once
// The hosts of a job, each judged as a host of that job (part of the judge, analyse/judge.hpp): each
// host section by the rules that serve one host of a job, with the findings of the whole job that are
// about it; their verdicts folded into the job's as its "hosts" check; and each host's verdict as its
// metrics and the gate read it.
#include <string>
#include <vector>

#include "analyse/rule_table.hpp"
#include "model/result.hpp"

namespace fb {

// Each finding of a job's document that names the GPUs of exactly one of its hosts (host:index) is
// about that host (its `host`), unless its rule said so already.
void name_finding_hosts(Result& job);

// Every host section judged as a host of `job` (a section without its host's facts keeps what it
// said), then the job's verdict given the sections' worst as its "hosts" check.
void judge_host_sections(Result& job, const JudgeContext& job_context);

}  // namespace fb
