#include "analyse/scope/gpu_model.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace fb {
namespace {

std::vector<std::string> words(const std::string& name) {
  std::vector<std::string> out;
  std::string word;
  for (const char c : name) {
    if (c == ' ' || c == '-' || c == '/' || c == '_') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  if (!word.empty()) out.push_back(word);
  return out;
}

bool has_digit(const std::string& w) {
  return std::any_of(w.begin(), w.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

}  // namespace

std::string gpu_model_key(const std::string& gpu_name) {
  const auto w = words(gpu_name);
  const auto model = std::find_if(w.begin(), w.end(), has_digit);
  if (model == w.end()) return "";
  const bool pcie = std::find(w.begin(), w.end(), "PCIE") != w.end();
  const bool nvl = std::find(w.begin(), w.end(), "NVL") != w.end();
  return *model + (pcie ? " PCIe" : nvl ? " NVL" : "");
}

}  // namespace fb
