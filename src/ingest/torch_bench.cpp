#include "ingest/torch_bench.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string_view>

#include "core/parse_number.hpp"

namespace fb {
namespace {

constexpr std::string_view kOpening = "The average bandwidth of all_reduce with a ";
constexpr int kFigureLines = 3;  // algbw and busbw follow within this many lines (a "std" line aside)

struct Opening {
  double payload_gb = 0;
  std::string payload_text;  // "4.0GB"
  int trials = 0;
  int ranks = 0;
};

// "4.0GB", "5", "16" as the payload, trials and ranks; nullopt where one is not a plausible number.
std::optional<Opening> opening_of(const std::string& size, const std::string& trials,
                                  const std::string& ranks) {
  const auto gb = try_parse_finite(size.substr(0, size.size() - 2));
  const auto t = try_parse_whole(trials);
  const auto n = try_parse_whole(ranks);
  if (!gb || !t || !n || *gb <= 0 || *gb > 1e6 || *t < 1 || *n < 1 || *n > 1 << 20) return std::nullopt;
  return Opening{*gb, size, static_cast<int>(*t), static_cast<int>(*n)};
}

// "4.0GB payload (5 trials, 16 ranks):" after the opening words.
std::optional<Opening> read_opening(const std::string& text) {
  const auto at = text.find(kOpening);
  if (at == std::string::npos) return std::nullopt;
  std::istringstream in(text.substr(at + kOpening.size()));
  std::string size, payload, trials, trials_word, ranks, ranks_word;
  in >> size >> payload >> trials >> trials_word >> ranks >> ranks_word;
  if (size.size() < 3 || !size.ends_with("GB") || payload != "payload" || !trials.starts_with('(') ||
      trials_word != "trials," || !ranks_word.starts_with("ranks)"))
    return std::nullopt;
  return opening_of(size, trials.substr(1), ranks);
}

// "algbw: 176.590 GBps (1412.7 Gbps)" -> 176.590 for key "algbw:"; nullopt when not that line or
// not a plausible rate (its time, payload over algbw, must stay a number).
std::optional<double> figure(const std::string& text, std::string_view key) {
  std::istringstream in(text);
  std::string word, value, unit;
  in >> word >> value >> unit;
  if (word != key || unit != "GBps") return std::nullopt;
  const auto v = try_parse_finite(value);
  if (!v || *v < 1e-6 || *v > 1e9) return std::nullopt;  // not a rate any all_reduce runs at
  return v;
}

ToolRun new_run(const Opening& o, const PasteLine& l) {
  ToolRun run;
  run.tool = "ml-engineering all_reduce_bench.py";
  run.collective = "all_reduce";
  run.collective_from = "the script's all_reduce";
  run.iters = o.trials;
  run.ranks = o.ranks;
  run.first_line = l.number;
  run.first_line_text = l.text;
  run.unknown.emplace_back("the hosts: the script does not say which ran its ranks (judged as one host)");
  run.unknown.emplace_back("NCCL's version: the script does not print it (pass --nccl-log FILE)");
  return run;
}

void add_point(ToolRun& run, const Opening& o, int line, double algbw, std::optional<double> busbw) {
  ToolPoint p;
  p.bytes = static_cast<std::uint64_t>(std::llround(o.payload_gb * 1e9));
  p.count = p.bytes / 4;  // the script's tensor is float32
  p.type = "float";
  p.redop = "sum";
  p.algbw = algbw;
  p.time_us = static_cast<double>(p.bytes) / (algbw * 1e3);
  const double factor = 2.0 * (o.ranks - 1) / o.ranks;
  p.busbw = busbw.value_or(algbw * factor);
  p.line = line;
  run.points.push_back(p);
  run.converted.push_back(fmt::format(
      "line {}: the payload {} is {} B (the script's M x N x 4 bytes / 1e9) and its algbw {:.3f} GBps is "
      "in 10^9 B/s, the mean over ranks and trials; the time of one all_reduce, {:.2f} us, is the payload "
      "over that algbw (the script prints no time){}",
      run.first_line, o.payload_text, p.bytes, algbw, p.time_us,
      busbw ? "" : fmt::format("; busbw, not printed, is algbw x 2(n-1)/n, n = {}", o.ranks)));
}

}  // namespace

bool looks_like_torch_bench(const Paste& paste) {
  for (const auto& l : paste.lines)
    if (read_opening(l.text)) return true;
  return false;
}

std::vector<ToolRun> read_torch_bench(const Paste& paste) {
  std::vector<ToolRun> runs;
  const auto& lines = paste.lines;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto o = read_opening(lines[i].text);
    if (!o) continue;
    auto run = new_run(*o, lines[i]);
    std::optional<double> algbw, busbw;
    int algbw_line = 0;
    for (std::size_t k = i + 1; k < lines.size() && k <= i + kFigureLines && !read_opening(lines[k].text);
         ++k) {
      if (!algbw) {
        algbw = figure(lines[k].text, "algbw:");
        algbw_line = lines[k].number;
      }
      if (!busbw) busbw = figure(lines[k].text, "busbw:");
    }
    if (algbw)
      add_point(run, *o, algbw_line, *algbw, busbw);
    else
      run.skipped.push_back(fmt::format("line {}: no \"algbw: N GBps\" line follows it", lines[i].number));
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace fb
