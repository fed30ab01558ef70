#pragma once
// JSON text from outside the process (an input file, another rank's frame) parsed without
// exceptions and with its nesting bounded. nlohmann's parser sets no limit, and what reads a
// document after it (conversions, checks, a dump) recurses once per level: a document nested
// 100,000 deep overflows the stack. The nesting is counted on the text first, in one pass and
// without recursion, so such a text is refused before anything recurses over it.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace fb {

// The deepest nesting of arrays and objects in `text` (what is inside strings does not count);
// counting stops at `limit` + 1.
int json_nesting(std::string_view text, int limit);

// The document in `text`, or nullopt with `why` set: "nested deeper than N levels" or the parser's
// own message (a syntax error, a number out of range). Never throws for what the text holds.
std::optional<nlohmann::json> parse_json_bounded(std::string_view text, int max_depth, std::string& why);

}  // namespace fb
