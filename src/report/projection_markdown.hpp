#pragma once
// The projection in Markdown (summary.md, `report -o x.md`): the table every view shows
// (report/projection_table.hpp), per phase with its plain answers, what it was projected from and
// every assumption. "" when the result holds none.
#include <string>

#include "model/result.hpp"

namespace fb {

std::string projection_markdown(const Result& r);

}  // namespace fb
