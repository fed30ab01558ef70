#include "analyse/judge.hpp"

#include <algorithm>

#include "analyse/host_judgement.hpp"
#include "analyse/rule_table.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "analyse/verdict/check_sentences.hpp"
#include "analyse/verdict/outcome.hpp"
#include "analyse/verdict/verdict_contract.hpp"

namespace fb {
namespace {

JudgeContext context_of(const Result& r, const JudgeOptions& options) {
  JudgeContext c;
  c.scope = !r.hosts.empty() || spans_hosts(r) ? JudgeScope::cluster : JudgeScope::run;
  c.peer_margin = options.peer_margin;
  if (options.nodes_ranking) c.nodes_ranking = &*options.nodes_ranking;
  return c;
}

}  // namespace

std::vector<Finding> analyse_result(const Result& r) { return run_rules(r, context_of(r, {})); }

void judge(Result& r, const JudgeOptions& options) {
  const auto context = context_of(r, options);
  r.findings = run_rules(r, context);
  if (context.scope == JudgeScope::cluster) name_finding_hosts(r);
  r.verdict = verdict_of(r, r.findings);
  r.rules_version = kRulesVersion;
  explain_passed_checks(r);
  if (!r.hosts.empty()) judge_host_sections(r, context);
  const auto headline = headline_outcome(r);  // the verdict in one sentence, written with it
  r.verdict->headline = headline.words;
  r.verdict->outcome = headline.key;
}

}  // namespace fb
