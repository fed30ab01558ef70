#pragma once
// The report's detail tables: headline figures, every finding, the pairs of the topology, the
// algorithm grid, the environment and the command. Tables that grow with the input stop at
// kMaxTableRows rows and say how many were left out.
#include <cstddef>
#include <string>

#include "model/result.hpp"
#include "report/judgement.hpp"

namespace fb {

inline constexpr std::size_t kMaxTableRows = 200;

std::string headline_table(const Result& r);
std::string findings_html(const Result& r);
// The document's own findings of other rules, apart from the current ones.
std::string saved_findings_html(const SavedFindings& saved);
std::string topology_table(const Result& r);
std::string algos_table(const Result& r);
std::string environment_html(const Result& r);

}  // namespace fb
