#pragma once
// The run's environment as far as another tool's output shows it, into the document's `env` and
// `source.env_sources` (1.6): the settings on its pasted command lines, and those NCCL reports taking
// ("NCCL_ALGO set by environment to Ring") from its lines in the output or a companion log. Where
// neither was in the output, `env_sources` stays empty and `source.unknown` says so: the environment is
// unknown, never "no setting".
#include <map>
#include <string>

#include "ingest/command_facts.hpp"
#include "model/result.hpp"

namespace fb {

void set_command_environment(Result& r, const CommandFacts& command);

// `logged` as NCCL's log reports it (NcclLogSummary::env); `where`: "NCCL's lines in the output", or the
// log file's name. NCCL's word wins over a command line that says otherwise (it is what NCCL took), said so.
void add_logged_environment(Result& r, const std::map<std::string, std::string>& logged,
                            const std::string& where);

// After the above: where nothing was read, `source.unknown` says that the environment is unknown.
void note_unread_environment(Result& r);

}  // namespace fb
