#include "ingest/nccl_tests_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <optional>

#include "core/parse_number.hpp"
#include "ingest/failure_lines.hpp"
#include "ingest/nccl_tests_columns.hpp"
#include "ingest/nccl_tests_header.hpp"

namespace fb {
namespace {

bool starts_with_whole_number(const std::string& line) {
  const auto w = row_words(line);
  return !w.empty() && try_parse_unsigned(w[0]).has_value();
}

bool all_numeric(const std::vector<std::string>& words) {
  for (const auto& w : words)
    if (w != "N/A" && !try_parse_finite(w) && !(w.size() > 1 && w.back() == '*')) return false;
  return !words.empty();
}

class Reader {
 public:
  explicit Reader(const Paste& p) : lines_(p.lines) {}

  std::vector<ToolRun> read() {
    for (i_ = 0; i_ < lines_.size(); ++i_) line();
    finish();
    return {std::make_move_iterator(runs_.begin()), std::make_move_iterator(runs_.end())};
  }

 private:
  void line() {
    const auto& l = lines_[i_];
    if (const auto kind = failure_line_kind(l.text); kind != FailureLine::none) return failure(l, kind);
    ToolRun probe;
    std::string command;
    const auto kind = read_header_line(l.text, probe, command);
    if (kind == HeaderLine::command) {
      pending_collective_ = command;
      return;
    }
    if (kind != HeaderLine::none) return header_line(l, kind);
    table_line(l);
  }

  // A test begins at its first header line, or at one its test already had (the next test's).
  void header_line(const PasteLine& l, HeaderLine kind) {
    std::string command;
    const bool opens =
        kind == HeaderLine::version || kind == HeaderLine::starting || kind == HeaderLine::settings;
    if (!run_ || (opens && (!run_->points.empty() || layout_ || seen_kind(kind)))) begin(l);
    read_header_line(l.text, *run_, command);
    if (opens) seen_.push_back(kind);
    if (kind == HeaderLine::out_of_bounds || kind == HeaderLine::average) in_table_ = false;
  }

  void table_line(const PasteLine& l) {
    const std::string above = i_ > 0 ? lines_[i_ - 1].text : "";
    if (auto layout = read_table_heading(l.text, above)) {
      if (!run_ || !run_->points.empty()) begin(l);
      layout_ = *layout;
      in_table_ = true;
      return;
    }
    if (!layout_ || read_units_line(l.text, *layout_)) return;
    const char first = l.text[l.text.find_first_not_of(' ')];
    if (first == '(' || first == '#' || !in_table_) return;  // '(': the units line's wrapped rest
    if (starts_with_whole_number(l.text)) return row();
    run_->skipped.push_back(fmt::format("line {}: not a row of the table", l.number));
  }

  // The tool died: its own line is kept for the document's failure, never taken for a row.
  void failure(const PasteLine& l, FailureLine kind) {
    if (!run_) begin(l);
    in_table_ = false;
    if (kind != FailureLine::primary) return;
    if (run_->failure.empty()) {
      run_->failure = l.text.substr(l.text.find_first_not_of(' '));
      run_->failure_line = l.number;
    }
    ++run_->failure_lines;
  }

  bool seen_kind(HeaderLine kind) const {
    for (const auto k : seen_)
      if (k == kind) return true;
    return false;
  }

  void begin(const PasteLine& l) {
    finish();
    runs_.emplace_back();
    run_ = &runs_.back();
    run_->first_line = l.number;
    run_->first_line_text = l.text;
    if (!pending_collective_.empty()) {
      run_->collective = pending_collective_;
      run_->collective_from = "the command line before it";
      pending_collective_.clear();
    }
    layout_.reset();
    in_table_ = false;
    seen_.clear();
  }

  void finish() {
    if (run_ && layout_ && layout_->cputime) run_->cputime = true;
    if (run_ && layout_ &&
        layout_->names.end() != std::find(layout_->names.begin(), layout_->names.end(), "error"))
      run_->wrong_is_max_error = true;
  }

  // A row, joined with the pieces that follow it where NCCL's log lines cut it at a print call.
  void row() {
    const auto first = i_;
    auto words = row_words(lines_[i_].text);
    const std::size_t need = layout_->width() - (layout_->has_timestamp ? 1 : 0);
    while (words.size() < need && lines_[i_].cut && i_ + 1 < lines_.size()) {
      const auto more = row_words(lines_[i_ + 1].text);
      if (!all_numeric(more)) break;
      words.insert(words.end(), more.begin(), more.end());
      ++i_;
    }
    auto read = read_table_row(words, *layout_);
    const int number = lines_[first].number;
    if (!read.error.empty()) {
      run_->skipped.push_back(i_ > first
                                  ? fmt::format("lines {}-{}: {}", number, lines_[i_].number, read.error)
                                  : fmt::format("line {}: {}", number, read.error));
      return;
    }
    for (auto& p : read.points) {
      p.line = number;
      run_->points.push_back(p);
    }
  }

  const std::vector<PasteLine>& lines_;
  std::size_t i_ = 0;
  std::deque<ToolRun> runs_;  // stable addresses: run_ points into it
  ToolRun* run_ = nullptr;
  std::optional<TableLayout> layout_;
  bool in_table_ = false;
  std::vector<HeaderLine> seen_;
  std::string pending_collective_;
};

}  // namespace

bool looks_like_nccl_tests(const Paste& paste) {
  for (std::size_t i = 0; i < paste.lines.size(); ++i)
    if (read_table_heading(paste.lines[i].text, i > 0 ? paste.lines[i - 1].text : "") ||
        is_collective_test_failure(paste.lines[i].text))
      return true;
  return false;
}

std::vector<ToolRun> read_nccl_tests_text(const Paste& paste) { return Reader(paste).read(); }

}  // namespace fb
