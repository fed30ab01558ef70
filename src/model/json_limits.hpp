#pragma once
// Checks on a parsed input document before it is converted to structs: nlohmann converts a
// number to an integer field with a plain cast (1e23 bytes reads as 0, 1e300 wrong elements as
// INT64_MIN, a cast that does not fit is undefined behaviour), so every whole-number field is
// checked here by name, with the JSON path in the error (docs/result-schema.md, "Limits").
#include <nlohmann/json.hpp>
#include <string>

namespace fb {

// GPU indices and counts read from input files stay below this (docs/cli.md, "Limits").
inline constexpr int kMaxGpus = 4096;
// Nesting deeper than this is not a fabricbench document.
inline constexpr int kMaxJsonDepth = 64;

// An input document's text parsed with its nesting bounded (core/json_text: counted on the text
// first, so that a document nested 100,000 deep is one line of error, not a stack overflow).
// Throws Error(usage) "not a JSON document: ..." or "$: nested deeper than 64 levels".
nlohmann::json parse_input_json(const std::string& text);

// Throws Error(usage) "<path>: expected ..." for a whole-number field (bytes, count, wrong,
// GPU indices, ...) holding a fraction or a value out of its range, a GPU list longer than
// kMaxGpus, or nesting deeper than kMaxJsonDepth.
void check_json_limits(const nlohmann::json& doc);

// A JSON object key that must be a whole number in [lo, hi] ("numa_cpulists" keys).
int json_key_number(const std::string& key, const std::string& path, int lo, int hi);

}  // namespace fb
