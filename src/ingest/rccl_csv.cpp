#include "ingest/rccl_csv.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>

#include "bench/collective_spec.hpp"
#include "core/parse_number.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

using Columns = std::map<std::string, std::size_t>;

std::string trimmed(std::string s) {
  s.erase(0, s.find_first_not_of(' '));
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

Columns columns_of(const std::string& header) {
  Columns c;
  const auto names = split(header, ',');
  for (std::size_t i = 0; i < names.size(); ++i) c[lower(trimmed(names[i]))] = i;
  return c;
}

std::optional<std::string> cell(const std::vector<std::string>& row, const Columns& c,
                                const std::string& name) {
  const auto it = c.find(name);
  if (it == c.end() || it->second >= row.size()) return std::nullopt;
  return trimmed(row[it->second]);
}

// "AllReduce" (NCCL's name, as the Reporter writes it) or "all_reduce" -> "all_reduce"; "" unknown.
std::string collective_name(const std::string& name) {
  for (const auto& spec : all_collectives())
    if (lower(spec.nccl_log_name) == lower(name) || spec.name == name) return std::string(spec.name);
  return "";
}

// The row's GPU count: ranks x gpusPerRank (MPI builds) or gpus.
std::optional<int> gpus_of(const std::vector<std::string>& row, const Columns& c) {
  const auto ranks = cell(row, c, "ranks");
  const auto per = cell(row, c, "gpusperrank");
  if (ranks && per) {
    const auto r = try_parse_whole(*ranks), g = try_parse_whole(*per);
    if (r && g && *r > 0 && *g > 0 && *r * *g <= 4096) return static_cast<int>(*r * *g);
    return std::nullopt;
  }
  if (const auto g = cell(row, c, "gpus"))
    if (const auto n = try_parse_whole(*g); n && *n > 0 && *n <= 4096) return static_cast<int>(*n);
  return std::nullopt;
}

// A non-negative number of the cell; nullopt where it is absent or not one.
std::optional<double> figure(const std::vector<std::string>& row, const Columns& c, const std::string& name) {
  const auto text = cell(row, c, name);
  if (!text) return std::nullopt;
  const auto v = try_parse_finite(*text);
  if (!v || *v < 0) return std::nullopt;
  return v;
}

// One row as a point, or why it cannot be read.
std::string read_row(const std::vector<std::string>& row, const Columns& c, ToolPoint& p) {
  const auto bytes = try_parse_unsigned(cell(row, c, "size").value_or(""));
  const auto t = figure(row, c, "time"), a = figure(row, c, "algbw"), b = figure(row, c, "busbw");
  const auto inplace = cell(row, c, "inplace");
  if (!bytes || !t || !a || !b || !inplace)
    return "its size, in-place flag, time or bandwidths are missing or not numbers";
  p.bytes = *bytes;
  p.time_us = *t;
  p.algbw = *a;
  p.busbw = *b;
  p.in_place = *inplace == "1";
  p.type = cell(row, c, "type").value_or("");
  p.redop = cell(row, c, "redop").value_or("");
  if (p.redop == "none") p.redop.clear();
  if (const auto w = cell(row, c, "#wrong"); w && *w != "N/A") p.wrong = try_parse_whole(*w);
  return "";
}

}  // namespace

bool looks_like_rccl_csv(const Paste& paste) {
  if (paste.lines.empty()) return false;
  const auto c = columns_of(paste.lines.front().text);
  return c.contains("collective") && c.contains("busbw") && c.contains("size") && c.contains("inplace");
}

std::vector<ToolRun> read_rccl_csv(const Paste& paste) {
  std::vector<ToolRun> runs;
  std::map<std::string, std::size_t> by_key;
  const auto c = columns_of(paste.lines.front().text);
  std::vector<std::string> orphans;
  for (std::size_t i = 1; i < paste.lines.size(); ++i) {
    const auto& line = paste.lines[i];
    const auto row = split(line.text, ',');
    const auto name = cell(row, c, "collective").value_or("");
    const auto n = gpus_of(row, c);
    ToolPoint p;
    p.line = line.number;
    auto why = read_row(row, c, p);
    if (why.empty() && !n) why = "no GPU count (gpus, or ranks and gpusPerRank)";
    const auto key = fmt::format("{}|{}|{}|{}|{}", cell(row, c, "numcycle").value_or(""), name, p.type,
                                 p.redop, n.value_or(0));
    if (!why.empty()) {
      orphans.push_back(fmt::format("line {}: {}", line.number, why));
      continue;
    }
    auto [it, added] = by_key.try_emplace(key, runs.size());
    if (added) {
      ToolRun run;
      run.tool = "rccl-tests CSV";
      run.library = "RCCL";
      run.collective = collective_name(name);
      run.collective_from = fmt::format("its collective column (\"{}\")", name);
      run.ranks = *n;
      run.first_line = line.number;
      if (run.collective.empty())
        run.skipped.push_back(fmt::format("collective \"{}\": not one fabricbench knows", name));
      runs.push_back(run);
    }
    if (!runs[it->second].collective.empty()) runs[it->second].points.push_back(p);
  }
  if (runs.empty()) runs.emplace_back();
  runs.front().skipped.insert(runs.front().skipped.end(), orphans.begin(), orphans.end());
  return runs;
}

}  // namespace fb
