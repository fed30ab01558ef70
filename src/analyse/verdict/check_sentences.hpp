#pragma once
// What a check that passed saw, in one sentence with its figure (the verdict contract's evidence for a
// PASS, which otherwise would be empty): a report then says of every check what it found, passed or
// not. "pairs: nominal: ce_read GPU0 -> GPU1 390.1 GB/s of the 394.0 GB/s expected (99%)".
#include <string>
#include <string_view>

#include "model/result.hpp"

namespace fb {

// The sentence for `check` (a name of analyse/verdict/verdict_contract.hpp) of judged document `r`, as it
// passed; "" for a check this file has no words for.
std::string pass_sentence(std::string_view check, const Result& r);

// Every PASS check of r.verdict given its sentence (judge_result calls it).
void explain_passed_checks(Result& r);

}  // namespace fb
