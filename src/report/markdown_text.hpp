#pragma once
// Text from outside (a host's name, an NCCL_* value, a finding's evidence that quotes them, a file's
// name) as summary.md may hold it: it stays on its line and in its table cell and is never read as
// Markdown's or HTML's own syntax. Control characters are written out (a newline would forge headings
// and table rows), a backslash, '|' (a table cell's end), '[' and ']' (links) are escaped, and so is a
// '<' that would open an HTML tag (`<script>`); "<->" and code spans read as before.
#include <string>
#include <string_view>

namespace fb {

std::string md_text(std::string_view text);

}  // namespace fb
