// Reading a Bash command for the text the agent supplies in it. An agent
// can make any "log line" appear in tool output by echoing it, printing a
// variable it set, passing it as an argument that an error message repeats,
// or writing it into a file with a heredoc, so output that repeats text the
// command line carried is not evidence (judgement.md section 3 rule 4).
// This collects that text: every word outside a search, with heredoc
// bodies and here-strings. The evidence index calls output self-made when
// the quoted fragment is mostly that text (supplied_coverage.h), so `grep
// "out of memory" train.log; echo ---` stays real evidence for the log
// lines it prints, and `echo "made up"` after it does not.
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
};

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : s_(text) {}

  std::vector<Segment> Run() {
    while (i_ < s_.size()) Step();
    EndWord();
    EndSegment();
    return std::move(segments_);
  }

 private:
  enum class Pending { kNone, kRedirectTarget, kHereString };
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
      case Pending::kHereString:
        cur_.here_text += word_;
        cur_.here_text.push_back('\n');
        break;
      case Pending::kRedirectTarget:  // a file name, not text the command supplies
        break;
      case Pending::kNone:
        cur_.words.push_back(word_);
        break;
    }
    pending_ = Pending::kNone;
    word_.clear();
    in_word_ = false;
  }

  void EndSegment() {
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
        EndSegment();
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
        EndSegment();
        ++i_;
        return;
      case '&':
        if (next == '>') {  // &> and &>> send stdout to a file
          EndWord();
          i_ += 2;
          if (At(i_) == '>') ++i_;
          pending_ = Pending::kRedirectTarget;
          return;
        }
        EndWord();
        EndSegment();
        i_ += next == '&' ? 2 : 1;
        return;
      case '|':
        EndWord();
        if (next == '|') {
          EndSegment();
          i_ += 2;
        } else {
          EndSegment();
          i_ += next == '&' ? 2 : 1;
        }
        return;
      case '$':
        if (next == '(') {
          EndWord();
          EndSegment();
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
        pending_ = Pending::kRedirectTarget;
        return;
      case '<':
        DropFdWord();
        if (next == '<' && At(i_ + 2) == '<') {
          i_ += 3;
          pending_ = Pending::kHereString;
        } else if (next == '<') {
          HeredocOperator();
        } else if (next == '(') {  // process substitution
          EndSegment();
          i_ += 2;
        } else {
          ++i_;
          if (At(i_) == '&') {
            ++i_;
            while (i_ < s_.size() && (s_[i_] == '-' || (s_[i_] >= '0' && s_[i_] <= '9'))) ++i_;
            return;
          }
          pending_ = Pending::kRedirectTarget;
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

// The segment's command (at: CommandIndex) searches data: grep, rg, find,
// journalctl, `git grep`, ...
bool IsSearch(const Segment& seg, std::size_t at) {
  if (at >= seg.words.size()) return false;
  const std::string_view name = Basename(seg.words[at]);
  if (Full(name, Search())) return true;
  std::size_t sub = at + 1;
  while (sub < seg.words.size() && !seg.words[sub].empty() && seg.words[sub][0] == '-') ++sub;
  return name == "git" && sub < seg.words.size() && seg.words[sub] == "grep";
}

void AppendLine(std::string* out, std::string_view text) {
  if (text.empty()) return;
  if (!out->empty()) out->push_back('\n');
  out->append(text);
}

ShellCommandInfo Analyze(std::string_view command, int depth) {
  ShellCommandInfo info;
  for (const Segment& seg : Tokenizer(command).Run()) {
    const std::size_t at = CommandIndex(seg.words);
    const bool search = IsSearch(seg, at);
    // Heredocs and here-strings are the agent's text even when a search
    // reads them: `grep x <<< "made up"` prints what it was given.
    AppendLine(&info.supplied, seg.here_text);
    if (search) continue;
    const bool shell = at < seg.words.size() && Full(Basename(seg.words[at]), Shell());
    for (std::size_t a = 0; a < seg.words.size(); ++a) {
      // `bash -c PROGRAM` is read as the command it is, so a search
      // inside it stays a search.
      const bool program = shell && depth < kMaxShellNesting && a > at && a + 1 < seg.words.size() &&
                           Full(seg.words[a], ShellCommandFlag());
      AppendLine(&info.supplied, seg.words[a]);
      if (program) {
        AppendLine(&info.supplied, Analyze(seg.words[a + 1], depth + 1).supplied);
        ++a;
      }
    }
  }
  return info;
}

}  // namespace

ShellCommandInfo AnalyzeShellCommand(std::string_view command) { return Analyze(command, 0); }

}  // namespace causegate::evidence
