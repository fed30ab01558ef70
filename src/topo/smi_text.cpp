#include "topo/smi_text.hpp"

#include <fmt/format.h>

#include <regex>
#include <sstream>

#include "core/error.hpp"

namespace fb {
namespace {

std::string strip_escapes(const std::string& text) {
  static const std::regex kEscape("\x1b\\[[0-9;]*m");
  return std::regex_replace(text, kEscape, "");
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
  return s.size() > 3 && s.rfind("GPU", 0) == 0 && std::isdigit(s[3]);
}

}  // namespace

NvidiaSmiTopo parse_nvidia_smi_topo(const std::string& raw) {
  NvidiaSmiTopo t;
  std::istringstream in(strip_escapes(raw));
  std::string line;
  std::vector<std::string> header;
  int cpu_col = -1;
  int numa_col = -1;
  while (std::getline(in, line)) {
    auto cells = split_tabs(line);
    if (header.empty()) {
      if (cells.size() > 1 && cells[0].empty() && is_gpu_label(cells[1])) {
        header = cells;
        for (std::size_t i = 0; i < header.size(); ++i) {
          if (header[i] == "CPU Affinity") cpu_col = static_cast<int>(i);
          if (header[i] == "NUMA Affinity") numa_col = static_cast<int>(i);
          if (is_gpu_label(header[i])) t.gpus.push_back(header[i]);
        }
      }
      continue;
    }
    if (cells.empty() || !is_gpu_label(cells[0])) {
      if (line.find("Legend") != std::string::npos) break;
      continue;  // NIC rows and blank lines
    }
    std::vector<std::string> row;
    for (std::size_t i = 1; i < header.size() && i < cells.size(); ++i)
      if (is_gpu_label(header[i])) row.push_back(cells[i]);
    if (row.size() != t.gpus.size())
      FB_USAGE_ERROR(fmt::format("nvidia-smi topo -m: row {} has {} GPU cells, expected {}", cells[0],
                                 row.size(), t.gpus.size()));
    t.matrix.push_back(row);
    t.cpu_affinity.push_back(cpu_col >= 0 && cpu_col < static_cast<int>(cells.size()) ? cells[cpu_col] : "");
    t.numa_affinity.push_back(numa_col >= 0 && numa_col < static_cast<int>(cells.size()) ? cells[numa_col]
                                                                                         : "");
  }
  if (t.gpus.empty()) FB_USAGE_ERROR("nvidia-smi topo -m: no GPU header line found");
  if (t.matrix.size() != t.gpus.size())
    FB_USAGE_ERROR(
        fmt::format("nvidia-smi topo -m: {} GPU rows for {} GPU columns", t.matrix.size(), t.gpus.size()));
  return t;
}

RocmSmiTopo parse_rocm_smi_topo(const std::string& raw) {
  RocmSmiTopo t;
  std::istringstream in(strip_escapes(raw));
  std::string line;
  enum class Section { none, weight, hops, type, numa } section = Section::none;
  static const std::regex kNuma(R"(GPU\[(\d+)\]\s*:\s*\(Topology\)\s*Numa Node:\s*(-?\d+))");
  while (std::getline(in, line)) {
    if (line.find("Weight between two GPUs") != std::string::npos)
      section = Section::weight;
    else if (line.find("Hops between two GPUs") != std::string::npos)
      section = Section::hops;
    else if (line.find("Link Type between two GPUs") != std::string::npos)
      section = Section::type;
    else if (line.find("Numa Nodes") != std::string::npos)
      section = Section::numa;
    else if (line.find("End of ROCm SMI Log") != std::string::npos)
      section = Section::none;
    else if (section == Section::numa) {
      std::smatch m;
      if (std::regex_search(line, m, kNuma)) {
        const auto gpu = static_cast<std::size_t>(std::stoi(m[1]));
        if (t.numa_node.size() <= gpu) t.numa_node.resize(gpu + 1, -1);
        t.numa_node[gpu] = std::stoi(m[2]);
      }
    } else if (section != Section::none) {
      const auto cells = split_ws(line);
      // Data rows start with their label; the column header line is indented.
      if (cells.empty() || !is_gpu_label(cells[0]) || std::isspace(static_cast<unsigned char>(line[0])))
        continue;
      std::vector<std::string> row(cells.begin() + 1, cells.end());
      try {
        if (section == Section::type) {
          t.link_type.push_back(row);
        } else {
          std::vector<int> numbers;
          for (const auto& c : row) numbers.push_back(std::stoi(c));
          (section == Section::weight ? t.weight : t.hops).push_back(numbers);
        }
      } catch (const std::exception&) {
        FB_USAGE_ERROR(fmt::format("rocm-smi --showtopo: unreadable row '{}'", line));
      }
    }
  }
  t.n = static_cast<int>(t.link_type.size());
  if (t.n == 0) FB_USAGE_ERROR("rocm-smi --showtopo: no 'Link Type between two GPUs' matrix found");
  for (const auto& row : t.link_type)
    if (static_cast<int>(row.size()) != t.n)
      FB_USAGE_ERROR("rocm-smi --showtopo: link type matrix is not square");
  if (static_cast<int>(t.hops.size()) != t.n || static_cast<int>(t.weight.size()) != t.n)
    FB_USAGE_ERROR("rocm-smi --showtopo: weight/hops matrices do not match the link type matrix");
  t.numa_node.resize(static_cast<std::size_t>(t.n), -1);
  return t;
}

}  // namespace fb
