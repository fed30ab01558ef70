#pragma once
// A site's own expectations (`--expectations FILE`, docs/verdicts.md "A site's baseline"): a JSON
// document {"schema": "fabricbench.expectations/1", "rows": [...]} whose rows replace the built-in
// rows of each GPU model and figure they name. A file that is missing, not JSON or holds a row the table
// cannot use is a usage error (exit 2) in one line naming the file, the row and what is wrong.
#include <string>

#include "model/result.hpp"

namespace fb {

inline constexpr const char* kExpectationsSchema = "fabricbench.expectations/1";

ExpectationSet parse_expectations(const std::string& text, const std::string& file);
ExpectationSet load_expectations_file(const std::string& path);

// A healthy run's baseline: for every collective run of 2 or more GPUs, its largest size as a typical
// row from that size up (GPU model, count, hosts, NCCL's algorithm where its log or NCCL_ALGO said).
std::vector<ExpectationRow> baseline_rows(const Result& r, const std::string& file);

// A site file holding `rows` (what `fabricbench expectations --from` writes).
std::string expectations_document(const std::vector<ExpectationRow>& rows);

}  // namespace fb
