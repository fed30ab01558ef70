#pragma once
// The projection as one table and its words, which every view lays out in its own form (the
// console's columns, Markdown, HTML) so that all of them say the same (JSON holds the data): per
// phase a row per TP with each all_reduce's basis marked (measured, bounded, assumed), the p99 cells
// "not measured" where no tail was, the plain answers with their rules, the curves and bounds used,
// and every assumption.
#include <string>
#include <vector>

#include "model/projection.hpp"

namespace fb {

// The column headings, units in them.
std::vector<std::string> projection_columns();

// One row's cells, in the order of projection_columns().
std::vector<std::string> projection_cells(const ProjectionRow& row);

// "measured", "bounded", "assumed" or "" (TP=1): the row's all_reduce basis (older documents: from
// `assumed`).
std::string comm_mark(const ProjectionRow& row);

// "prefill (131072 tokens per pass; per GPU and per layer; pass = time to first token)".
std::string phase_title(const ProjectionPhase& phase);

// "Fastest for latency: TP=8: ...", "Cheapest that still pays: TP=4: ..." (older documents: their
// best TP).
std::vector<std::string> answer_lines(const ProjectionPhase& phase);

// The model and its source, the workload, the compute rates, each curve and each bound used.
std::vector<std::string> projection_inputs(const Projection& p);

// "name = value: note", one per assumption.
std::vector<std::string> assumption_lines(const Projection& p);

// What the marks mean, in one sentence.
std::string marks_legend();

}  // namespace fb
