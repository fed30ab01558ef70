#pragma once
// NCCL's own choice at each size of a collective run, where its log was read (the document's points'
// `nccl`: the algorithm, the protocol and, from NCCL 2.24, the channels), in every view: a column of
// the console and CSV point tables, and a table of its own in the Markdown summary and the HTML report.
// Nothing is shown where no point carries one: no log, or a log without NCCL_DEBUG_SUBSYS=TUNING.
#include <string>

#include "model/result.hpp"

namespace fb {

bool has_nccl_choice(const Run& run);
// "RING/SIMPLE x24", "RING/LL" (no channel count before 2.24), "" where the point has none.
std::string nccl_choice_text(const Point& p);
std::string nccl_choices_markdown(const Result& r);
std::string nccl_choices_html(const Result& r);

}  // namespace fb
