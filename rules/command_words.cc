// Command lines as words. The tokenizer knows just enough shell to keep a
// quoted argument whole and to cut a line at its pipes and lists, so that
// "python train.py --bs 8 2>&1 | tail -20" and the same run with "--bs 4"
// differ in one word of one segment. The one-variable comparison is what
// makes a control a control in the seed's sense: the failing run again,
// with one thing changed.
// Tests: tests/unit/rules/protocol_command_words_test.cc.
#include "rules/command_words.h"

#include <algorithm>
#include <array>

namespace causegate::rules {
namespace {

// Commands longer than this are not compared (a heredoc or an inline
// program is not a re-run with a flag changed).
constexpr std::size_t kMaxComparedCommandBytes = 8192;
constexpr std::size_t kMaxLabelArgChars = 40;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view BaseName(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool IsEnvAssignment(const std::string& word) {
  const std::size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (std::size_t i = 0; i < eq; ++i) {
    const char c = word[i];
    const bool ok = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

bool IsNumber(const std::string& word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

template <std::size_t N>
bool OneOf(std::string_view word, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), word) != set.end();
}

// Index of the word that names the program, past env assignments and
// wrappers (sudo, time, timeout N, nice, nohup, exec, watch -n N).
std::size_t ProgramIndex(const std::vector<std::string>& words) {
  std::size_t i = 0;
  while (i < words.size()) {
    const std::string_view w = BaseName(words[i]);
    if (IsEnvAssignment(words[i])) {
      ++i;
    } else if (w == "do" || w == "then" || w == "else" || w == "!") {
      ++i;  // the body of a loop or a branch
    } else if (w == "sudo" || w == "nohup" || w == "exec" || w == "time" || w == "env" || w == "command") {
      ++i;
      while (i < words.size() && words[i].size() > 1 && words[i][0] == '-') {
        const bool takes_value = words[i] == "-u" || words[i] == "-g";
        i += takes_value ? 2 : 1;
      }
    } else if (w == "timeout" || w == "nice" || w == "watch" || w == "stdbuf") {
      ++i;
      while (i < words.size() && words[i].size() > 1 && words[i][0] == '-') {
        const bool takes_value = words[i] == "-n" || words[i] == "-s" || words[i] == "-k";
        i += takes_value ? 2 : 1;
      }
      if (w == "timeout" && i < words.size() && IsNumber(words[i].substr(0, words[i].find_first_not_of("0123456789.")))) ++i;
    } else {
      break;
    }
  }
  return i;
}

std::string ProgramOf(const std::vector<std::string>& words) {
  const std::size_t i = ProgramIndex(words);
  return i < words.size() ? std::string(BaseName(words[i])) : std::string();
}

constexpr std::array<std::string_view, 16> kSetupPrograms = {"cd",  "export", "source", ".",     "set",  "pushd",
                                                             "popd", "true", "for",   "while", "until", "if",
                                                             "done", "fi",   "case",  "esac"};
constexpr std::array<std::string_view, 14> kSubcommandPrograms = {
    "git", "kubectl", "gh", "docker", "helm", "systemctl", "go", "cargo", "npm", "conda", "pip", "pip3", "gcloud", "aws"};
// Flags of those tools that take a value ahead of the subcommand.
constexpr std::array<std::string_view, 9> kValueFlags = {"-n", "--namespace", "-C", "--context", "-R", "--repo",
                                                         "-c", "--kubeconfig", "--profile"};
// Output filters: changing their arguments shows more or less of the same
// output, it does not vary the run.
constexpr std::array<std::string_view, 20> kFilters = {"tail", "head", "grep", "egrep", "fgrep", "rg", "less",
                                                       "more", "sed", "awk", "cut", "sort", "uniq", "wc", "tee",
                                                       "jq", "cat", "column", "tr", "xargs"};

std::string Shorten(std::string_view s, std::size_t max_chars) {
  if (s.size() <= max_chars) return std::string(s);
  std::size_t cut = max_chars;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return std::string(s.substr(0, cut)) + "…";
}

std::string ShellLabel(std::string_view command, int depth);

// The label of one segment, or "" for a set-up segment (cd, export).
std::string SegmentLabel(const std::vector<std::string>& words, int depth) {
  std::size_t i = ProgramIndex(words);
  if (i >= words.size()) return "";
  const std::string program(BaseName(words[i]));
  if (OneOf(program, kSetupPrograms)) return "";
  if (program == "ssh" && depth == 0) {
    ++i;
    while (i < words.size() && words[i].size() > 1 && words[i][0] == '-') {
      const bool takes_value = words[i].size() == 2 && std::string_view("oipFlJ").find(words[i][1]) != std::string_view::npos;
      i += takes_value ? 2 : 1;
    }
    ++i;  // the host
    std::string rest;
    for (; i < words.size(); ++i) rest += words[i] + " ";
    const std::string inner = ShellLabel(rest, depth + 1);
    return inner.empty() ? program : inner;
  }
  if ((program == "python" || program == "python3") && i + 1 < words.size()) {
    if (words[i + 1] == "-m" && i + 2 < words.size()) return words[i + 2];
    if (words[i + 1] == "-c") return program + " -c";
    return program + " " + std::string(BaseName(words[i + 1]));
  }
  if (OneOf(program, kSubcommandPrograms)) {
    for (std::size_t j = i + 1; j < words.size(); ++j) {
      if (OneOf(std::string_view(words[j]), kValueFlags)) {
        ++j;
        continue;
      }
      if (!words[j].empty() && words[j][0] == '-') continue;
      return program + " " + words[j];
    }
  }
  return program;
}

std::string ShellLabel(std::string_view command, int depth) {
  for (const std::vector<std::string>& segment : SplitCommand(command)) {
    std::string label = SegmentLabel(segment, depth);
    if (!label.empty()) return Shorten(label, kMaxLabelArgChars);
  }
  return "";
}

// The difference between two word lists that share a program: exactly one
// word changed, or one flag (alone or with its value) added or removed.
bool OneWordDiff(const std::vector<std::string>& a, const std::vector<std::string>& b, std::size_t program,
                 std::string* changed) {
  std::size_t k = 0;
  while (k < a.size() && k < b.size() && a[k] == b[k]) ++k;
  if (a.size() == b.size()) {
    if (k == a.size() || k == program) return false;
    for (std::size_t j = k + 1; j < a.size(); ++j) {
      if (a[j] != b[j]) return false;
    }
    const bool after_flag = k > 0 && a[k - 1].size() > 1 && a[k - 1][0] == '-';
    *changed = (after_flag ? a[k - 1] + " " : std::string()) + a[k] + " -> " + b[k];
    return true;
  }
  const bool added = b.size() > a.size();
  const std::vector<std::string>& longer = added ? b : a;
  const std::vector<std::string>& shorter = added ? a : b;
  const std::size_t extra = longer.size() - shorter.size();
  if (extra > 2 || k >= longer.size() || k <= program) return false;
  if (!std::equal(longer.begin() + static_cast<std::ptrdiff_t>(k + extra), longer.end(),
                  shorter.begin() + static_cast<std::ptrdiff_t>(k), shorter.end())) {
    return false;
  }
  const std::string& word = longer[k];
  const bool flag = word.size() > 1 && word[0] == '-';
  if (extra == 2 ? !flag : !(flag || IsEnvAssignment(word))) return false;
  *changed = std::string(added ? "+ " : "- ") + word + (extra == 2 ? " " + longer[k + 1] : std::string());
  return true;
}

}  // namespace

bool IsShellTool(std::string_view tool) {
  return tool == "Bash" || tool == "bash" || tool == "shell" || tool == "Shell" || tool == "run_shell_command" ||
         tool == "exec_command" || tool == "local_shell" || tool == "powershell";
}

std::string MaskQuotedOperators(std::string_view command) {
  std::string out(command);
  char quote = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < out.size()) {
        ++i;
      } else if (std::string_view("|;&<>").find(c) != std::string_view::npos) {
        out[i] = ' ';
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '\\') {
      ++i;
    }
  }
  return out;
}

CommandWords SplitCommand(std::string_view command) {
  CommandWords out(1);
  std::string word;
  bool in_word = false;
  auto end_word = [&] {
    if (in_word) out.back().push_back(std::move(word));
    word.clear();
    in_word = false;
  };
  auto end_segment = [&] {
    end_word();
    if (!out.back().empty()) out.emplace_back();
  };
  char quote = 0;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < command.size()) {
        word += command[++i];
      } else {
        word += c;
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < command.size()) {
      if (command[i + 1] != '\n') word += command[i + 1];
      in_word = in_word || command[i + 1] != '\n';
      ++i;
    } else if (IsSpace(c)) {
      end_word();
    } else if (c == '\n' || c == ';' || c == '|' ||
               (c == '&' && !(i > 0 && command[i - 1] == '>') && !(i + 1 < command.size() && command[i + 1] == '>'))) {
      end_segment();
    } else {
      word += c;
      in_word = true;
    }
  }
  end_word();
  if (out.size() > 1 && out.back().empty()) out.pop_back();
  return out;
}

std::string CallLabel(std::string_view tool, std::string_view command) {
  if (IsShellTool(tool)) {
    std::string label = ShellLabel(command.substr(0, kMaxComparedCommandBytes), 0);
    return label.empty() ? std::string(tool) : label;
  }
  if (command.empty()) return std::string(tool);
  const std::string_view arg = command.find('/') != std::string_view::npos && command.find(' ') == std::string_view::npos
                                   ? BaseName(command)
                                   : command;
  return std::string(tool) + " " + Shorten(arg, kMaxLabelArgChars);
}

bool OneVariableChange(std::string_view before, std::string_view after, std::string* changed) {
  if (before.size() > kMaxComparedCommandBytes || after.size() > kMaxComparedCommandBytes) return false;
  const CommandWords a = SplitCommand(before);
  const CommandWords b = SplitCommand(after);
  if (a.size() != b.size()) return false;
  std::size_t differing = a.size();
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    if (differing != a.size()) return false;  // a second segment differs
    differing = i;
  }
  if (differing == a.size()) return false;  // the same command again
  const std::vector<std::string>& x = a[differing];
  const std::vector<std::string>& y = b[differing];
  const std::string program = ProgramOf(x);
  if (program.empty() || program != ProgramOf(y) || OneOf(std::string_view(program), kFilters)) return false;
  // The program's position: env assignments before it may differ, so the
  // shorter list's index bounds where a change may start.
  const std::size_t at = std::min(ProgramIndex(x), ProgramIndex(y));
  std::string diff;
  // A changed env assignment ahead of the program is a changed variable.
  const bool env_changed = at < ProgramIndex(x) || at < ProgramIndex(y) ||
                           !std::equal(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(at), y.begin());
  if (env_changed) {
    // Compare as if the assignments were flags after the program.
    std::vector<std::string> xs(x.begin() + static_cast<std::ptrdiff_t>(ProgramIndex(x)), x.end());
    std::vector<std::string> ys(y.begin() + static_cast<std::ptrdiff_t>(ProgramIndex(y)), y.end());
    if (xs != ys) return false;
    std::vector<std::string> xe(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(ProgramIndex(x)));
    std::vector<std::string> ye(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(ProgramIndex(y)));
    xe.insert(xe.begin(), program);
    ye.insert(ye.begin(), program);
    if (!OneWordDiff(xe, ye, 0, &diff)) return false;
  } else if (!OneWordDiff(x, y, at, &diff)) {
    return false;
  }
  if (changed) *changed = std::move(diff);
  return true;
}

}  // namespace causegate::rules
