#pragma once
// Small text helpers shared by every layer: one definition each, one set of rules.
#include <string>
#include <string_view>
#include <vector>

namespace fb {

// ASCII lower case.
std::string lower(std::string_view text);

// Pieces between `sep`, empty pieces kept ("a,,b" -> "a", "", "b"; "" -> one empty piece), so
// that a caller can reject an empty entry by name rather than skip it silently.
std::vector<std::string> split(std::string_view text, char sep);

// `text` with every control character written out ("\n", "\t", "\x1c"), so that a value echoed
// from a file or the command line cannot split or garble a one-line message.
std::string escape_control(std::string_view text);

// Equal items counted, in the order each first appears: {"H200", "H200", "H100"} -> "2 x H200 + 1 x H100"
// (`sep` between the groups); "" for none. How the views say several GPUs or ports of a kind.
std::string counted_join(const std::vector<std::string>& items, std::string_view sep = " + ");

// "0,1,2" (or with another separator): how GPU ids are written in messages, options and CSV.
std::string join_ints(const std::vector<int>& values, std::string_view sep = ",");

}  // namespace fb
