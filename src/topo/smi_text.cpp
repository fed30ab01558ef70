#include "topo/smi_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/error.hpp"
#include "core/parse_number.hpp"

namespace fb {
namespace {

// Removes the terminal colour sequences (ESC '[' [0-9;]* 'm') in one pass; non-ASCII bytes become '?'.
std::string strip_escapes(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      std::size_t j = i + 2;
      while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == ';')) ++j;
      if (j < text.size() && text[j] == 'm') {
        i = j;
        continue;
      }
    }
    // The tools print ASCII; other bytes (invalid UTF-8) would break the JSON written later.
    out += static_cast<unsigned char>(text[i]) >= 0x80 ? '?' : text[i];
  }
  return out;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, '\t')) {
    const auto b = cell.find_first_not_of(' ');
    const auto e = cell.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  return out;
}

std::vector<std::string> split_ws(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

bool is_gpu_label(const std::string& s) {
  return s.size() > 3 && s.rfind("GPU", 0) == 0 && std::isdigit(static_cast<unsigned char>(s[3]));
}

// --- nvidia-smi topo -m ---------------------------------------------------------------------

// The column header line: where the GPU, CPU affinity and NUMA affinity columns are.
struct NvidiaHeader {
  std::vector<std::string> cells;
  int cpu_col = -1;
  int numa_col = -1;
};

// The header line starts with an empty cell, then "GPU0".
bool is_nvidia_header(const std::vector<std::string>& cells) {
  return cells.size() > 1 && cells[0].empty() && is_gpu_label(cells[1]);
}

NvidiaHeader read_nvidia_header(const std::vector<std::string>& cells, NvidiaSmiTopo& t) {
  NvidiaHeader h{cells};
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == "CPU Affinity") h.cpu_col = static_cast<int>(i);
    if (cells[i] == "NUMA Affinity") h.numa_col = static_cast<int>(i);
    if (is_gpu_label(cells[i])) t.gpus.push_back(cells[i]);
  }
  return h;
}

std::string cell_or_empty(const std::vector<std::string>& cells, int col) {
  return col >= 0 && col < static_cast<int>(cells.size()) ? cells[static_cast<std::size_t>(col)] : "";
}

void add_nvidia_gpu_row(const NvidiaHeader& h, const std::vector<std::string>& cells, NvidiaSmiTopo& t) {
  std::vector<std::string> row;
  for (std::size_t i = 1; i < h.cells.size() && i < cells.size(); ++i)
    if (is_gpu_label(h.cells[i])) row.push_back(cells[i]);
  if (row.size() != t.gpus.size())
    FB_USAGE_ERROR(fmt::format("nvidia-smi topo -m: row {} has {} GPU cells, expected {}", cells[0],
                               row.size(), t.gpus.size()));
  t.matrix.push_back(row);
  t.cpu_affinity.push_back(cell_or_empty(cells, h.cpu_col));
  t.numa_affinity.push_back(cell_or_empty(cells, h.numa_col));
}

void check_nvidia_shape(const NvidiaSmiTopo& t) {
  if (t.gpus.empty()) FB_USAGE_ERROR("nvidia-smi topo -m: no GPU header line found");
  if (t.matrix.size() != t.gpus.size())
    FB_USAGE_ERROR(
        fmt::format("nvidia-smi topo -m: {} GPU rows for {} GPU columns", t.matrix.size(), t.gpus.size()));
}

// --- rocm-smi --showtopo --------------------------------------------------------------------

enum class RocmSection { none, weight, hops, type, numa };

// The section a heading line opens (the log's end closes them all); nullopt for other lines.
std::optional<RocmSection> rocm_heading(const std::string& line) {
  struct Heading {
    const char* marker;
    RocmSection section;
  };
  static constexpr std::array<Heading, 5> kHeadings{{{"Weight between two GPUs", RocmSection::weight},
                                                     {"Hops between two GPUs", RocmSection::hops},
                                                     {"Link Type between two GPUs", RocmSection::type},
                                                     {"Numa Nodes", RocmSection::numa},
                                                     {"End of ROCm SMI Log", RocmSection::none}}};
  for (const auto& h : kHeadings)
    if (line.find(h.marker) != std::string::npos) return h.section;
  return std::nullopt;
}

// A GPU index in the printed NUMA lines; far more GPUs than any machine has is malformed input.
constexpr int kMaxGpuIndex = 4095;

int parse_numa_number(std::string_view digits, const std::string& line) {
  const auto v = try_parse_whole(digits);
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max())
    FB_USAGE_ERROR(fmt::format("rocm-smi --showtopo: unreadable NUMA line '{}'", line.substr(0, 200)));
  return static_cast<int>(*v);
}

std::size_t skip_spaces(std::string_view s, std::size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

std::size_t skip_digits(std::string_view s, std::size_t i) {
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// "GPU[<gpu>] : (Topology) Numa Node: <node>" from `at`, scanned without backtracking.
std::optional<std::pair<std::string_view, std::string_view>> match_numa_at(std::string_view s,
                                                                           std::size_t at) {
  std::size_t i = at + 4;  // past "GPU["
  const std::size_t gpu_end = skip_digits(s, i);
  if (gpu_end == i || s.substr(gpu_end, 1) != "]") return std::nullopt;
  const auto gpu = s.substr(i, gpu_end - i);
  i = skip_spaces(s, gpu_end + 1);
  if (s.substr(i, 1) != ":") return std::nullopt;
  i = skip_spaces(s, i + 1);
  constexpr std::string_view kTopology = "(Topology)";
  if (s.substr(i, kTopology.size()) != kTopology) return std::nullopt;
  i = skip_spaces(s, i + kTopology.size());
  constexpr std::string_view kNode = "Numa Node:";
  if (s.substr(i, kNode.size()) != kNode) return std::nullopt;
  i = skip_spaces(s, i + kNode.size());
  const std::size_t node_start = i;
  if (s.substr(i, 1) == "-") ++i;
  const std::size_t node_end = skip_digits(s, i);
  if (node_end == i) return std::nullopt;
  return std::pair{gpu, s.substr(node_start, node_end - node_start)};
}

void read_rocm_numa_line(const std::string& line, RocmSmiTopo& t) {
  const std::string_view s(line);
  for (auto at = s.find("GPU["); at != std::string_view::npos; at = s.find("GPU[", at + 1)) {
    const auto m = match_numa_at(s, at);
    if (!m) continue;
    const int gpu = parse_numa_number(m->first, line);
    if (gpu > kMaxGpuIndex)
      FB_USAGE_ERROR(
          fmt::format("rocm-smi --showtopo: GPU index {} is above the limit of {}", gpu, kMaxGpuIndex));
    const auto index = static_cast<std::size_t>(gpu);
    if (t.numa_node.size() <= index) t.numa_node.resize(index + 1, -1);
    t.numa_node[index] = parse_numa_number(m->second, line);
    return;
  }
}

void add_rocm_matrix_row(RocmSection section, const std::string& line, const std::vector<std::string>& row,
                         RocmSmiTopo& t) {
  const std::size_t rows = std::max({t.link_type.size(), t.weight.size(), t.hops.size()});
  if (rows > static_cast<std::size_t>(kMaxGpuIndex) ||
      row.size() > static_cast<std::size_t>(kMaxGpuIndex) + 1)
    FB_USAGE_ERROR(fmt::format("rocm-smi --showtopo: more than {} GPUs", kMaxGpuIndex + 1));
  try {
    if (section == RocmSection::type) {
      t.link_type.push_back(row);
      return;
    }
    std::vector<int> numbers;
    numbers.reserve(row.size());
    // rocm-smi prints N/A where the library could not read a pair (rocm_smi.py: "Cannot read Link
    // Weight: Not supported on this machine").
    for (const auto& c : row) numbers.push_back(c == "N/A" ? -1 : parse_int_in(c, "cell"));
    (section == RocmSection::weight ? t.weight : t.hops).push_back(numbers);
  } catch (const Error&) {
    FB_USAGE_ERROR(fmt::format("rocm-smi --showtopo: unreadable row '{}'", line.substr(0, 200)));
  }
}

void read_rocm_matrix_line(RocmSection section, const std::string& line, RocmSmiTopo& t) {
  const auto cells = split_ws(line);
  // Data rows start with their label; the column header line is indented.
  if (cells.empty() || !is_gpu_label(cells[0]) || std::isspace(static_cast<unsigned char>(line[0]))) return;
  add_rocm_matrix_row(section, line, std::vector<std::string>(cells.begin() + 1, cells.end()), t);
}

template <typename Cell>
void check_square(const std::vector<std::vector<Cell>>& m, std::size_t n, const char* what) {
  if (m.empty()) return;
  if (m.size() != n)
    FB_USAGE_ERROR(
        fmt::format("rocm-smi --showtopo: the {} matrix has {} rows for {} GPUs", what, m.size(), n));
  for (const auto& row : m)
    if (row.size() != n)
      FB_USAGE_ERROR(fmt::format("rocm-smi --showtopo: the {} matrix is not square", what));
}

// What the text lacks, named: ROCm 6.1 on a partitioned MI300 prints only the Weight section,
// its cells N/A.
void note_missing_sections(const std::string& text, RocmSmiTopo& t) {
  std::size_t errors = 0;
  for (auto at = text.find("Cannot read Link"); at != std::string::npos;
       at = text.find("Cannot read Link", at + 1))
    ++errors;
  const bool no_hops = t.hops.empty();
  const bool no_type = t.link_type.empty();
  if (no_type)
    t.unread.push_back(
        fmt::format("rocm-smi --showtopo printed no {} (a partitioned GPU, TPX or CPX mode?): "
                    "xGMI links not read, pairs judged by PCIe",
                    no_hops ? "Hops or Link Type sections" : "Link Type section"));
  else if (no_hops)
    t.unread.emplace_back("rocm-smi --showtopo printed no Hops section");
  if (errors > 0)
    t.unread.push_back(
        fmt::format("rocm-smi --showtopo could not read {} link value{} (\"Cannot read Link ...: Not "
                    "supported on this machine\")",
                    errors, errors == 1 ? "" : "s"));
}

void check_rocm_shape(RocmSmiTopo& t) {
  t.n = static_cast<int>(std::max({t.link_type.size(), t.weight.size(), t.hops.size()}));
  if (t.n == 0)
    FB_USAGE_ERROR("rocm-smi --showtopo: no 'Weight', 'Hops' or 'Link Type between two GPUs' matrix found");
  const auto n = static_cast<std::size_t>(t.n);
  check_square(t.link_type, n, "link type");
  check_square(t.weight, n, "weight");
  check_square(t.hops, n, "hops");
}

}  // namespace

NvidiaSmiTopo parse_nvidia_smi_topo(const std::string& raw) {
  NvidiaSmiTopo t;
  std::istringstream in(strip_escapes(raw));
  std::string line;
  NvidiaHeader header;
  while (std::getline(in, line)) {
    const auto cells = split_tabs(line);
    if (header.cells.empty()) {
      if (is_nvidia_header(cells)) header = read_nvidia_header(cells, t);
    } else if (!cells.empty() && is_gpu_label(cells[0])) {
      add_nvidia_gpu_row(header, cells, t);
    } else if (line.find("Legend") != std::string::npos) {
      break;  // NIC rows and blank lines before it are skipped
    }
  }
  check_nvidia_shape(t);
  return t;
}

RocmSmiTopo parse_rocm_smi_topo(const std::string& raw) {
  RocmSmiTopo t;
  std::istringstream in(strip_escapes(raw));
  std::string line;
  RocmSection section = RocmSection::none;
  while (std::getline(in, line)) {
    if (const auto heading = rocm_heading(line))
      section = *heading;
    else if (section == RocmSection::numa)
      read_rocm_numa_line(line, t);
    else if (section != RocmSection::none)
      read_rocm_matrix_line(section, line, t);
  }
  check_rocm_shape(t);
  note_missing_sections(raw, t);
  t.numa_node.resize(static_cast<std::size_t>(t.n), -1);
  return t;
}

}  // namespace fb
