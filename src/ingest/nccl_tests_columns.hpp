#pragma once
// The columns of an nccl-tests (or rccl-tests) table as its heading names them, and one row read
// against them. Every generation's layout is read from its own heading, not assumed: "size count
// type [redop] [root]" (the oldest print only the ones the test takes), then per variant "time
// algbw busbw" and "#wrong" (or the oldest "error", a largest difference, not a count), the -I
// columns "i_min i_max i_p99 i_cv%" where present, a trailing timestamp with -S.
#include <optional>
#include <string>
#include <vector>

#include "ingest/tool_run.hpp"

namespace fb {

struct TableLayout {
  std::vector<std::string> names;  // the heading's words, lower case
  int variants = 0;                // groups of time/algbw/busbw (1 or 2)
  bool first_in_place = false;     // only an in-place group (rccl-tests -O 0)
  double time_scale = 1;           // to microseconds: 1000 where the units line says (ms)
  bool cputime = false;
  bool has_timestamp = false;
  [[nodiscard]] std::size_t width() const { return names.size(); }
};

// The layout of a heading line ("#  size  count  type  redop  root  time  algbw ..."); nullopt when
// the line is not one. `above` is the line before it ("out-of-place   in-place"), "" when none.
std::optional<TableLayout> read_table_heading(const std::string& line, const std::string& above);
// Reads a units line ("(B) (elements) (us) (GB/s) ...") into the layout; false when it is not one.
bool read_units_line(const std::string& line, TableLayout& layout);

// The whitespace-separated words of a row.
std::vector<std::string> row_words(const std::string& line);

// The row's variants as points; an error (why the row cannot be read, in words) instead where a
// word is not a number, the row has too few words, or a variant's algbw is not its size over its
// time (a damaged row: a digit lost or two pieces run together).
struct RowRead {
  std::vector<ToolPoint> points;
  std::string error;
};
RowRead read_table_row(const std::vector<std::string>& words, const TableLayout& layout);

}  // namespace fb
