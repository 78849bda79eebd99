// Reading a Bash command for the text it prints back. An agent can make any
// "log line" appear in tool output by echoing it, so output that repeats
// text the command itself carried is not evidence (judgement.md section 3
// rule 4). Rather than flag whole commands, this finds the exact text such
// a command supplies: echo / printf arguments, heredoc bodies, here-strings
// and inline programs. The evidence index then calls output self-made only
// when the quoted fragment is inside that text, so `grep "out of memory"
// train.log; echo ---` stays real evidence for the log lines it prints.
//
// The reader is a small quote-aware tokenizer (single and double quotes,
// backslashes, comments, heredocs with their bodies, redirections, pipes
// and command separators), not a shell: it never fails, and what it cannot
// follow it treats as ordinary words. Command names are classified with
// RE2 patterns compiled once.
// Tests: tests/unit/evidence/shell_command_test.cc.
#include "evidence/shell_command.h"

#include <re2/re2.h>

#include <cstddef>
#include <vector>

namespace causegate::evidence {
namespace {

// How deep `bash -c '...'` is looked into.
constexpr int kMaxShellNesting = 4;

struct Segment {
  std::vector<std::string> words;  // quotes removed; redirections left out
  std::string here_text;           // heredoc bodies and here-strings fed to it
  bool to_file = false;            // stdout goes to a file (not /dev/...)
  bool pipes_to_next = false;
};

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : s_(text) {}

  std::vector<Segment> Run() {
    while (i_ < s_.size()) Step();
    EndWord();
    EndSegment(false);
    return std::move(segments_);
  }

 private:
  enum class Pending { kNone, kOutputTarget, kInputTarget, kHereString };
  struct Heredoc {
    std::string delimiter;
    bool strip_tabs;
    std::size_t segment;
  };

  char At(std::size_t k) const { return k < s_.size() ? s_[k] : '\0'; }

  void Append(char c) {
    word_.push_back(c);
    in_word_ = true;
  }

  void EndWord() {
    if (!in_word_) return;
    switch (pending_) {
      case Pending::kOutputTarget:
        if (word_.rfind("/dev/", 0) != 0) cur_.to_file = true;
        break;
      case Pending::kHereString:
        cur_.here_text += word_;
        cur_.here_text.push_back('\n');
        break;
      case Pending::kInputTarget:
        break;
      case Pending::kNone:
        cur_.words.push_back(word_);
        break;
    }
    pending_ = Pending::kNone;
    word_.clear();
    in_word_ = false;
  }

  void EndSegment(bool pipe) {
    cur_.pipes_to_next = pipe;
    segments_.push_back(std::move(cur_));
    cur_ = Segment();
  }

  // A word made only of digits before '>' or '<' is a file descriptor.
  void DropFdWord() {
    if (in_word_ && !word_.empty() && pending_ == Pending::kNone &&
        word_.find_first_not_of("0123456789") == std::string::npos) {
      word_.clear();
      in_word_ = false;
    } else {
      EndWord();
    }
  }

  void SingleQuoted() {
    const std::size_t close = s_.find('\'', i_ + 1);
    const std::size_t end = close == std::string_view::npos ? s_.size() : close;
    word_.append(s_.substr(i_ + 1, end - i_ - 1));
    in_word_ = true;
    i_ = end + 1;
  }

  void DoubleQuoted() {
    ++i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      const char next = At(i_ + 1);
      if (s_[i_] == '\\' && (next == '"' || next == '\\' || next == '$' || next == '`')) {
        word_.push_back(next);
        i_ += 2;
      } else if (s_[i_] == '\\' && next == '\n') {
        i_ += 2;
      } else {
        word_.push_back(s_[i_++]);
      }
    }
    ++i_;
    in_word_ = true;
  }

  void HeredocOperator() {
    i_ += 2;
    bool strip_tabs = false;
    if (At(i_) == '-') {
      strip_tabs = true;
      ++i_;
    }
    while (At(i_) == ' ' || At(i_) == '\t') ++i_;
    std::string delimiter;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\'' || c == '"') {
        const std::size_t close = s_.find(c, i_ + 1);
        const std::size_t end = close == std::string_view::npos ? s_.size() : close;
        delimiter.append(s_.substr(i_ + 1, end - i_ - 1));
        i_ = end + 1;
      } else if (c == '\\') {
        ++i_;
      } else if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' ||
                 c == '<' || c == '>' || c == '(' || c == ')') {
        break;
      } else {
        delimiter.push_back(c);
        ++i_;
      }
    }
    if (!delimiter.empty()) heredocs_.push_back(Heredoc{delimiter, strip_tabs, segments_.size()});
  }

  // Called just after an unquoted newline: the bodies of the heredocs
  // opened on the line before follow, in order.
  void HeredocBodies() {
    for (const Heredoc& doc : heredocs_) {
      std::string& body = segments_[doc.segment].here_text;
      while (i_ < s_.size()) {
        const std::size_t eol = s_.find('\n', i_);
        const std::size_t end = eol == std::string_view::npos ? s_.size() : eol;
        std::string_view line = s_.substr(i_, end - i_);
        i_ = end == s_.size() ? end : end + 1;
        std::string_view check = line;
        if (doc.strip_tabs) {
          while (!check.empty() && check.front() == '\t') check.remove_prefix(1);
        }
        if (!check.empty() && check.back() == '\r') check.remove_suffix(1);
        if (check == doc.delimiter) break;
        // <<- strips leading tabs from the body as well as the delimiter.
        if (doc.strip_tabs) {
          while (!line.empty() && line.front() == '\t') line.remove_prefix(1);
        }
        body.append(line);
        body.push_back('\n');
      }
    }
    heredocs_.clear();
  }

  void Step() {
    const char c = s_[i_];
    const char next = At(i_ + 1);
    switch (c) {
      case ' ':
      case '\t':
      case '\r':
        EndWord();
        ++i_;
        return;
      case '\\':
        if (next == '\n') {
          i_ += 2;
        } else {
          if (i_ + 1 < s_.size()) Append(next);
          i_ += 2;
        }
        return;
      case '\'':
        SingleQuoted();
        return;
      case '"':
        DoubleQuoted();
        return;
      case '#':
        if (in_word_) {
          Append(c);
          ++i_;
        } else {
          while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        }
        return;
      case '\n':
        EndWord();
        EndSegment(false);
        ++i_;
        HeredocBodies();
        return;
      case ';':
      case '(':
      case ')':
      case '`':
      case '{':
      case '}':
        if (in_word_ && (c == '{' || c == '}')) {  // brace expansion, ${var}
          Append(c);
          ++i_;
          return;
        }
        EndWord();
        EndSegment(false);
        ++i_;
        return;
      case '&':
        if (next == '>') {  // &> and &>> send stdout to a file
          EndWord();
          i_ += 2;
          if (At(i_) == '>') ++i_;
          pending_ = Pending::kOutputTarget;
          return;
        }
        EndWord();
        EndSegment(false);
        i_ += next == '&' ? 2 : 1;
        return;
      case '|':
        EndWord();
        if (next == '|') {
          EndSegment(false);
          i_ += 2;
        } else {
          EndSegment(true);
          i_ += next == '&' ? 2 : 1;
        }
        return;
      case '$':
        if (next == '(') {
          EndWord();
          EndSegment(false);
          i_ += 2;
          return;
        }
        Append(c);
        ++i_;
        return;
      case '>':
        DropFdWord();
        ++i_;
        if (At(i_) == '>' || At(i_) == '|') ++i_;
        if (At(i_) == '&') {  // 2>&1, >&2: a descriptor, not a file
          ++i_;
          while (i_ < s_.size() && (s_[i_] == '-' || (s_[i_] >= '0' && s_[i_] <= '9'))) ++i_;
          return;
        }
        pending_ = Pending::kOutputTarget;
        return;
      case '<':
        DropFdWord();
        if (next == '<' && At(i_ + 2) == '<') {
          i_ += 3;
          pending_ = Pending::kHereString;
        } else if (next == '<') {
          HeredocOperator();
        } else if (next == '(') {  // process substitution
          EndSegment(false);
          i_ += 2;
        } else {
          ++i_;
          if (At(i_) == '&') {
            ++i_;
            while (i_ < s_.size() && (s_[i_] == '-' || (s_[i_] >= '0' && s_[i_] <= '9'))) ++i_;
            return;
          }
          pending_ = Pending::kInputTarget;
        }
        return;
      default:
        Append(c);
        ++i_;
        return;
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::string word_;
  bool in_word_ = false;
  Pending pending_ = Pending::kNone;
  Segment cur_;
  std::vector<Segment> segments_;
  std::vector<Heredoc> heredocs_;
};

const RE2& Pattern(const char* pattern) {
  // Leaked on purpose: compiled once, shared by all threads, never destroyed
  // while another static may still use it at exit.
  RE2::Options options;
  options.set_log_errors(false);
  return *new RE2(pattern, options);
}

const RE2& EchoCommand() {
  static const RE2& re = Pattern("echo|printf|print");
  return re;
}
const RE2& EchoOption() {
  static const RE2& re = Pattern("-[neE]+");
  return re;
}
const RE2& Interpreter() {
  static const RE2& re =
      Pattern(R"((python|pypy)[0-9.]*|node(js)?|deno|bun|perl|ruby|php[0-9.]*|lua|Rscript)");
  return re;
}
const RE2& InlineProgramFlag() {
  static const RE2& re = Pattern(R"(-c|-e|-E|-p|-r|--eval|--print)");
  return re;
}
const RE2& Shell() {
  static const RE2& re = Pattern(R"((ba|z|da|k)?sh)");
  return re;
}
const RE2& ShellCommandFlag() {  // -c, -lc, -xc, -ec ...
  static const RE2& re = Pattern(R"(-[a-z]*c[a-z]*)");
  return re;
}
const RE2& Search() {
  static const RE2& re = Pattern(
      R"([efz]?grep|z[ef]grep|xzgrep|bzgrep|ugrep|rg|ag|ack|ack-grep|find|fd|fdfind|)"
      R"(journalctl|locate|plocate)");
  return re;
}
const RE2& Neutral() {  // set-up commands that do not decide what a command is
  static const RE2& re =
      Pattern(R"(cd|pushd|popd|export|set|unset|source|\.|true|:|ulimit|umask|shopt)");
  return re;
}
const RE2& Wrapper() {
  static const RE2& re = Pattern(R"(sudo|env|command|builtin|time|nohup|exec|nice|ionice|stdbuf)");
  return re;
}
const RE2& Assignment() {
  static const RE2& re = Pattern(R"([A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=.*)");
  return re;
}

std::string_view Basename(std::string_view word) {
  const std::size_t slash = word.rfind('/');
  return slash == std::string_view::npos ? word : word.substr(slash + 1);
}

bool Full(std::string_view text, const RE2& re) {
  return RE2::FullMatch(re2::StringPiece(text.data(), text.size()), re);
}

// Index of the command word: after assignments, wrappers and their options,
// and the duration of `timeout`. words.size() when there is none.
std::size_t CommandIndex(const std::vector<std::string>& words) {
  std::size_t k = 0;
  while (k < words.size()) {
    const std::string_view w = words[k];
    if (Full(w, Assignment())) {
      ++k;
    } else if (Full(Basename(w), Wrapper())) {
      const bool sudo = Basename(w) == "sudo";
      ++k;
      while (k < words.size() && !words[k].empty() && words[k][0] == '-') {
        const bool takes_arg = sudo && (words[k] == "-u" || words[k] == "-g");
        k += takes_arg ? 2 : 1;
      }
    } else if (Basename(w) == "timeout") {
      ++k;
      while (k < words.size() && !words[k].empty() && words[k][0] == '-') ++k;
      ++k;  // the duration
    } else {
      break;
    }
  }
  return k;
}

std::string_view CommandName(const Segment& seg) {
  const std::size_t k = CommandIndex(seg.words);
  return k < seg.words.size() ? Basename(seg.words[k]) : std::string_view();
}

void AppendLine(std::string* out, std::string_view text) {
  if (text.empty()) return;
  if (!out->empty()) out->push_back('\n');
  out->append(text);
}

ShellCommandInfo Analyze(std::string_view command, int depth) {
  ShellCommandInfo info;
  const std::vector<Segment> segments = Tokenizer(command).Run();
  bool search_decided = false;
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const Segment& seg = segments[k];
    const std::size_t at = CommandIndex(seg.words);
    const std::string_view name =
        at < seg.words.size() ? Basename(seg.words[at]) : std::string_view();
    if (!search_decided && !name.empty() && !Full(name, Neutral())) {
      search_decided = true;
      std::size_t sub = at + 1;
      while (sub < seg.words.size() && !seg.words[sub].empty() && seg.words[sub][0] == '-') {
        ++sub;
      }
      info.is_search = Full(name, Search()) ||
                       (name == "git" && sub < seg.words.size() && seg.words[sub] == "grep");
    }

    std::string echoed;
    std::string written;
    if (Full(name, EchoCommand())) {
      std::size_t a = at + 1;
      if (name == "echo") {
        while (a < seg.words.size() && Full(seg.words[a], EchoOption())) ++a;
      }
      for (; a < seg.words.size(); ++a) {
        if (!echoed.empty()) echoed.push_back(' ');
        echoed.append(seg.words[a]);
      }
    } else if (Full(name, Interpreter()) || Full(name, Shell())) {
      const bool shell = Full(name, Shell());
      for (std::size_t a = at + 1; a + 1 < seg.words.size(); ++a) {
        const bool flag = shell ? Full(seg.words[a], ShellCommandFlag())
                                : Full(seg.words[a], InlineProgramFlag());
        if (!flag) continue;
        if (shell && depth < kMaxShellNesting) {
          ShellCommandInfo inner = Analyze(seg.words[a + 1], depth + 1);
          AppendLine(&echoed, inner.echoed);
          AppendLine(&written, inner.written);
        } else {
          AppendLine(&echoed, seg.words[a + 1]);
        }
        break;
      }
    }
    AppendLine(&echoed, seg.here_text);
    if (echoed.empty() && written.empty()) continue;
    AppendLine(&info.echoed, echoed);

    // Into a file: a redirection, tee in this command, or tee later in
    // the same pipeline.
    bool to_file = seg.to_file || name == "tee";
    for (std::size_t j = k; !to_file && segments[j].pipes_to_next && j + 1 < segments.size();
         ++j) {
      to_file = CommandName(segments[j + 1]) == "tee";
    }
    AppendLine(&info.written, written);
    if (to_file) AppendLine(&info.written, echoed);
  }
  return info;
}

}  // namespace

ShellCommandInfo AnalyzeShellCommand(std::string_view command) { return Analyze(command, 0); }

}  // namespace causegate::evidence
