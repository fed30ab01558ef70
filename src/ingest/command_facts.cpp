#include "ingest/command_facts.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <string_view>

#include "core/parse_number.hpp"
#include "ingest/nccl_tests_header.hpp"

namespace fb {
namespace {

constexpr std::array<std::string_view, 6> kKeptPrefixes{"NCCL_", "RCCL_", "CUDA_", "HIP_", "HSA_", "ROCR_"};
constexpr std::size_t kMaxJoined = 64;  // continuation lines joined into one command, at most
constexpr std::size_t kMaxWords = 4096;

std::string_view basename(std::string_view w) {
  const auto slash = w.find_last_of('/');
  return slash == std::string_view::npos ? w : w.substr(slash + 1);
}

bool is_launcher(std::string_view w) {
  const auto b = basename(w);
  return b == "mpirun" || b == "mpiexec" || b == "orterun" || b == "prterun" || b == "srun" ||
         b == "torchrun" || w == "torch.distributed.run" || w == "torch.distributed.launch";
}

bool names_test(std::string_view w) {
  const auto b = basename(w);
  return !collective_of_binary(std::string(w)).empty() || b == "all_reduce_bench.py" ||
         b == "torch-dist-bench.py";
}

// Words as the shell splits them: spaces separate, quotes group and are removed.
std::vector<std::string> shell_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (const char c : text) {
    if (quote != 0) {
      if (c == quote)
        quote = 0;
      else
        word += c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ') {
      if (in_word && words.size() < kMaxWords) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word && words.size() < kMaxWords) words.push_back(word);
  return words;
}

void skip_spaces(std::string_view& s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
}

// "user@host:~/dir$", "root@box#", "Singularity>": a shell prompt's first word.
bool prompt_word(std::string_view first) {
  if (first == "Singularity>") return true;
  const char last = first.empty() ? '\0' : first.back();
  return first.size() >= 2 && (last == '$' || last == '#' || last == '>') &&
         first.find_first_of("@:~") != std::string_view::npos;
}

// The command after a prompt: "$ ", "> " (a Markdown quote), "(venv) ", "user@host:~/dir$ ",
// "[root@host dir]# ", "Singularity> ".
std::string_view strip_prompt(std::string_view s) {
  skip_spaces(s);
  while (s.starts_with("> ") || s.starts_with("$ ")) {
    s.remove_prefix(2);
    skip_spaces(s);
  }
  if (const auto venv = s.find(") "); s.starts_with('(') && venv != std::string_view::npos && venv < 64) {
    s.remove_prefix(venv + 2);
    skip_spaces(s);
  }
  if (s.starts_with('[')) {
    for (const std::string_view end : {"]# ", "]$ "})
      if (const auto at = s.find(end); at != std::string_view::npos && at < 200) return s.substr(at + 3);
  }
  const auto space = s.find(' ');
  if (space != std::string_view::npos && prompt_word(s.substr(0, space))) s.remove_prefix(space + 1);
  return s;
}

bool valid_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  for (const char c : name)
    if (!(c == '_' || std::isupper(static_cast<unsigned char>(c)) != 0 ||
          std::isdigit(static_cast<unsigned char>(c)) != 0))
      return false;
  return true;
}

class CommandReader {
 public:
  CommandReader(CommandFacts& f, int line) : f_(f), line_(line) {}

  void read(const std::vector<std::string>& w) {
    if (!w.empty() && w.front() == "export") how_ = "export";
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (is_launcher(w[i])) {
        launcher_ = f_.launcher = true;
        continue;
      }
      if (names_test(w[i])) {
        test_ = true;
        f_.test_line = line_;
        how_ = "";
        continue;
      }
      if (!option(w, i)) assignment(w[i], how_.empty() ? "the command line" : how_);
    }
    if (nproc_ && nnodes_ && !f_.processes) f_.processes = *nproc_ * *nnodes_;
    if (nproc_ && !nnodes_ && !f_.processes) f_.processes = nproc_;
  }

 private:
  // A NAME=VALUE word; only the variables the document keeps.
  void assignment(std::string_view word, std::string_view how) {
    const auto eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) return;
    const std::string name(word.substr(0, eq));
    if (!valid_name(name) || !is_kept_variable(name)) return;
    const std::string value(word.substr(eq + 1));
    f_.env[name] = value;
    f_.sources.push_back(fmt::format("line {}: {}={} ({})", line_, name, value, how));
  }

  static std::optional<int> count(std::string_view text) {
    const auto v = try_parse_whole(text);
    return v && *v >= 1 && *v <= (1 << 20) ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
  }

  // "--name=N" or "--name N" (advancing `i`); nullopt when `w[i]` is not that option.
  static std::optional<std::optional<int>> valued(const std::vector<std::string>& w, std::size_t& i,
                                                  std::initializer_list<std::string_view> names) {
    for (const auto name : names) {
      if (w[i] == name && i + 1 < w.size()) return count(w[++i]);
      if (w[i].size() > name.size() + 1 && w[i].starts_with(name) && w[i][name.size()] == '=')
        return count(std::string_view(w[i]).substr(name.size() + 1));
    }
    return std::nullopt;
  }

  // Whether the option was there (`found`), its count then kept in `into`.
  static bool set(std::optional<int>& into, const std::optional<std::optional<int>>& found) {
    if (!found) return false;
    into = *found;
    return true;
  }

  bool env_option(const std::vector<std::string>& w, std::size_t& i) {
    if ((w[i] == "-x" || w[i] == "-e" || w[i] == "--env") && i + 1 < w.size()) {
      const std::string_view next = w[i + 1];
      const auto name = next.substr(0, next.find('='));
      if (!valid_name(name) || !is_kept_variable(std::string(name))) return false;
      ++i;
      if (next.find('=') != std::string_view::npos)
        assignment(next, w[i - 1] == "-x" ? "mpirun -x" : "the command line's " + w[i - 1]);
      else
        f_.unknown.push_back(
            fmt::format("line {}: {} {} passes a value the paste does not show", line_, w[i - 1], name));
      return true;
    }
    if (w[i] == "-genv" && i + 2 < w.size() && is_kept_variable(w[i + 1])) {
      assignment(w[i + 1] + "=" + w[i + 2], "mpirun -genv");
      i += 2;
      return true;
    }
    if (!w[i].starts_with("--export=")) return false;
    std::string_view list = std::string_view(w[i]).substr(9);
    while (!list.empty()) {
      const auto comma = list.find(',');
      assignment(list.substr(0, comma), "srun --export");
      list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    return true;
  }

  bool option(const std::vector<std::string>& w, std::size_t& i) {
    if (env_option(w, i)) return true;
    if (launcher_ && !test_) {
      if (set(f_.processes, valued(w, i, {"-np", "--np", "-n", "--ntasks"}))) return true;
      if (set(nproc_, valued(w, i, {"--nproc_per_node", "--nproc-per-node"}))) return true;
      if (set(nnodes_, valued(w, i, {"--nnodes"}))) return true;
    }
    if (test_) {
      if (set(f_.gpus_per_process, valued(w, i, {"-g", "--ngpus"}))) return true;
      if (set(f_.threads_per_process, valued(w, i, {"-t", "--nthreads"}))) return true;
    }
    return false;
  }

  CommandFacts& f_;
  int line_;
  bool launcher_ = false;
  bool test_ = false;
  std::string how_;
  std::optional<int> nproc_;
  std::optional<int> nnodes_;
};

bool is_command(const std::vector<std::string>& w) {
  if (w.empty() || w.front().starts_with('#') || w.front() == "Collective") return false;
  if (w.front() == "export" || w.front() == "env") return true;
  for (const auto& word : w)
    if (is_launcher(word) || names_test(word)) return true;
  return false;
}

}  // namespace

bool is_kept_variable(const std::string& name) {
  for (const auto prefix : kKeptPrefixes)
    if (name.size() > prefix.size() && name.starts_with(prefix)) return true;
  return false;
}

CommandFacts read_command_facts(const Paste& paste) {
  CommandFacts f;
  const auto& lines = paste.lines;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string text(strip_prompt(lines[i].text));
    const int number = lines[i].number;
    for (std::size_t k = 0; k < kMaxJoined && text.ends_with('\\') && i + 1 < lines.size(); ++k) {
      text.pop_back();
      text += ' ';
      text += strip_prompt(lines[++i].text);
    }
    const auto words = shell_words(text);
    if (!is_command(words)) continue;
    f.commands.push_back(fmt::format("line {}", number));
    CommandReader(f, number).read(words);
  }
  return f;
}

}  // namespace fb
