#pragma once
// The words every view gives a document read from another tool's output (`source`): what it was
// read from, what was converted, the lines left out and what the output does not tell, with the
// flag that would tell it. "" for a fabricbench measurement.
#include <string>

#include "model/result.hpp"

namespace fb {

// Markdown lines (each "- ...") under a "Read from" line; "" when the document has no `source`.
std::string import_source_markdown(const Result& r);

}  // namespace fb
