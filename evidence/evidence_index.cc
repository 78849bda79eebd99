// The citation look-up (judgement.md section 3). Every tool call is folded
// once (text_fold.h) into its output, its input (all string values of the
// input object) and, for shell commands, the text the command prints back
// (shell_command.h); Locate then does plain substring searches on folded
// text.
//
// Order of the search: real output of the judged turn, then real output of
// earlier turns, loaded from History one at a time and only while the
// fragment has not been found. A hit is real unless it is self-made: at
// least kSelfMadeShare of the fragment lies in runs that occur in text the
// agent supplied at or before the call that shows it (supplied_coverage.h):
// the words of its command lines outside searches, what it wrote with
// Write / Edit / a heredoc, a subagent's prompt (ExtractToolInputText,
// AnalyzeShellCommand). So `echo`, `printf` with a format, a variable set
// and printed later, an error message repeating its argument and a file
// written and read back are all self-made, while `grep "out of memory"
// train.log` stays evidence for the log lines it prints even when the quote
// is the pattern. "Before" is among the calls loaded so far: text supplied
// in a turn older than every turn read is not known, which keeps a hit in
// the judged turn from costing a read of the whole session.
// A hit in output a model wrote (model_output.h) is real only when the
// fragment lies inside one span that model quoted (read with the caller's
// QuotedSpanFinder, once per output, on its first hit) and, for a Claude
// Code subagent, when its own transcript's real tool output holds the
// fragment too (subagent_transcripts.h); without that transcript the quote
// counts, as the subagent's own stop was judged on it. Otherwise the hit is
// model text: reported speech, not evidence.
// Only when no real hit exists anywhere is the fragment classified, in the
// spec's order: self-made output, model text, tool input, the user's
// prompts, nowhere.
//
// Offsets are mapped back from folded to raw text lazily, for the one hit
// returned: folding is local to white-space separated words, so the raw
// text is re-folded line by line and then word by word up to the hit.
//
// The searches themselves go through ScannedText (scanned_text.h): each
// folded text is scanned once per NeedleSet, so the fragments a message
// announced with Expect cost one pass over each output between them.
// Tests: tests/unit/evidence/evidence_index_test.cc, model_output_test.cc.
#include "evidence/evidence_index.h"

#include <algorithm>
#include <utility>

#include "evidence/claude_line.h"
#include "evidence/fold_cache.h"
#include "evidence/limits.h"
#include "evidence/shell_command.h"
#include "evidence/subagent_transcripts.h"
#include "evidence/text_fold.h"

namespace causegate::evidence {
namespace {

bool IsShellTool(std::string_view name) {
  // Claude Code's Bash, and the shell tools of the other agents' adapters.
  return name == "Bash" || name == "bash" || name == "shell" || name == "Shell" ||
         name == "run_shell_command" || name == "exec_command" || name == "local_shell";
}

// The parts of a call its input gives the index, folded: every string of
// the input, and the agent's own text in it (a shell command's words
// outside searches, a file it wrote, ...).
FoldedInput ReadInput(const ToolCall& call) {
  const ToolInputText input = ExtractToolInputText(call.name, call.input);
  FoldedInput folded;
  folded.all = FoldForMatch(input.all);
  const std::string supplied = IsShellTool(call.name) ? AnalyzeShellCommand(call.command).supplied : input.supplied;
  folded.supplies = !supplied.empty();
  if (folded.supplies) folded.supplied = FoldForMatch(supplied);
  return folded;
}

// Every byte ReadInput reads, unambiguously: the lengths first.
std::string InputKey(const ToolCall& call) {
  std::string key = std::to_string(call.name.size()) + ":" + std::to_string(call.command.size()) + ":";
  key += call.name;
  key += call.command;
  key += call.input;
  return key;
}

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Folded text has ASCII spaces only between words (text_fold.h).
bool IsOneWord(std::string_view folded) { return folded.find(' ') == std::string_view::npos; }

bool IsPlainAscii(std::string_view word) {
  for (const char c : word) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0 || u >= 0x80) return false;
  }
  return true;
}

// Raw offset within one word (no ASCII white space) of the folded position
// `target` of that word. ASCII folds byte for byte; otherwise the last
// character boundary whose prefix folds to at most `target` bytes, found by
// folding prefixes, which is quadratic and so only done for short words.
std::size_t OffsetInWord(std::string_view word, std::size_t target) {
  constexpr std::size_t kMaxRefinedWordBytes = 1024;
  if (IsPlainAscii(word)) return target;
  if (word.size() > kMaxRefinedWordBytes) return 0;
  std::size_t best = 0;
  for (std::size_t k = 1; k <= word.size(); ++k) {
    if (k < word.size() && (static_cast<unsigned char>(word[k]) & 0xC0) == 0x80) continue;
    if (FoldForMatch(word.substr(0, k)).size() > target) break;
    best = k;
  }
  return best;
}

// Raw offset within one line of the folded position `target` of that line.
std::size_t OffsetInLine(std::string_view line, std::size_t target) {
  std::size_t folded_end = 0;
  bool any = false;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsAsciiSpace(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !IsAsciiSpace(line[i])) ++i;
    if (start == i) break;
    const std::string_view word = line.substr(start, i - start);
    const std::string folded = FoldForMatch(word);
    if (folded.empty()) continue;
    const std::size_t begin = folded_end + (any ? 1 : 0);
    if (target < begin + folded.size()) {
      if (target < begin) return start;  // the space before the word
      return start + OffsetInWord(word, target - begin);
    }
    folded_end = begin + folded.size();
    any = true;
  }
  return line.size();
}

// Raw offset in `raw` of the folded position `target` of FoldForMatch(raw).
std::size_t RawOffset(std::string_view raw, std::size_t target) {
  std::size_t folded_end = 0;
  bool any = false;
  std::size_t start = 0;
  while (start <= raw.size()) {
    const std::size_t eol = raw.find('\n', start);
    const std::size_t end = eol == std::string_view::npos ? raw.size() : eol;
    const std::string_view line = raw.substr(start, end - start);
    const std::string folded = FoldForMatch(line);
    if (!folded.empty()) {
      const std::size_t begin = folded_end + (any ? 1 : 0);
      if (target < begin + folded.size()) {
        return start + OffsetInLine(line, target < begin ? 0 : target - begin);
      }
      folded_end = begin + folded.size();
      any = true;
    }
    if (eol == std::string_view::npos) break;
    start = eol + 1;
  }
  return raw.size();
}

}  // namespace

const char* SourceName(Source source) {
  switch (source) {
    case Source::kToolOutput:
      return "tool-output";
    case Source::kSelfMadeOutput:
      return "self-made-output";
    case Source::kModelText:
      return "model-text";
    case Source::kToolInput:
      return "tool-input";
    case Source::kUserMessage:
      return "user-message";
    case Source::kNowhere:
      return "nowhere";
  }
  return "nowhere";
}

EvidenceIndex::EvidenceIndex(const Turn& turn, History* history, QuotedSpanFinder quoted_spans)
    : EvidenceIndex(turn, history, std::move(quoted_spans), 0, nullptr) {}

EvidenceIndex::EvidenceIndex(const Turn& turn, History* history, QuotedSpanFinder quoted_spans,
                             int subagent_depth, std::size_t* evidence_bytes)
    : turn_(turn),
      history_(history),
      quoted_spans_(std::move(quoted_spans)),
      subagent_depth_(subagent_depth),
      evidence_bytes_(evidence_bytes != nullptr ? evidence_bytes : &own_evidence_bytes_) {}

EvidenceIndex::~EvidenceIndex() = default;

void EvidenceIndex::Build() {
  if (built_) return;
  built_ = true;
  user_texts_.emplace_back(FoldForMatch(turn_.prompt));
  for (std::size_t i = 0; i < turn_.tool_calls.size(); ++i) Add(turn_.tool_calls[i], 0, i);
}

void EvidenceIndex::Add(const ToolCall& call, int turns_back, std::size_t index) {
  const CallPlace place{turns_back, static_cast<std::uint32_t>(index)};
  Folded folded{&call, {}, {}, place, ModelWrittenOutput(call.name), false, {}};
  FoldedInput input = FoldInput([&call] { return InputKey(call); }, [&call] { return ReadInput(call); });
  folded.input = ScannedText(std::move(input.all));
  if (input.supplies) supplied_.push_back(Supplied{place, std::move(input.supplied)});
  // Past the session-wide bound, later outputs are not kept (not searched).
  if (*evidence_bytes_ < limits::kMaxEvidenceBytes) {
    folded.output = ScannedText(FoldOutput(call.output));
    *evidence_bytes_ += folded.output.text().size();
  }
  calls_.push_back(std::move(folded));
}

bool EvidenceIndex::LoadOneOlder() {
  if (history_done_) return false;
  if (history_ == nullptr || *evidence_bytes_ >= limits::kMaxEvidenceBytes) {
    history_done_ = true;
    return false;
  }
  PastTurn past;
  if (!history_->LoadOlder(&past)) {
    history_done_ = true;
    return false;
  }
  past_.push_back(std::move(past));
  const PastTurn& loaded = past_.back();
  user_texts_.emplace_back(FoldForMatch(loaded.prompt));
  for (std::size_t i = 0; i < loaded.tool_calls.size(); ++i) {
    Add(loaded.tool_calls[i], loaded.turns_back, i);
  }
  return true;
}

double EvidenceIndex::SuppliedShare(const Folded& folded, NeedleRef needle) {
  if (static_cast<std::size_t>(needle.set) >= coverage_.size()) coverage_.resize(sets_.size());
  Coverage& coverage = coverage_[static_cast<std::size_t>(needle.set)];
  if (coverage.of == nullptr) coverage.of = std::make_unique<SuppliedCoverage>(sets_[needle.set]);
  // Text supplied by calls loaded since the last question about this set.
  for (; coverage.scanned < supplied_.size(); ++coverage.scanned) {
    const Supplied& s = supplied_[coverage.scanned];
    coverage.of->Scan(s.text, s.place);
  }
  return coverage.of->Share(needle.needle, folded.place);
}

Source EvidenceIndex::ModelOutputSource(Folded* folded, NeedleRef needle, std::string_view fragment) {
  if (!folded->quoted_read) {
    folded->quoted_read = true;
    if (quoted_spans_) {
      for (const std::string& span : quoted_spans_(folded->call->output)) {
        std::string text = FoldForMatch(span);
        *evidence_bytes_ += text.size();
        if (!text.empty()) folded->quoted.emplace_back(std::move(text));
      }
    }
  }
  bool quoted = false;
  for (ScannedText& span : folded->quoted) {
    if (span.Find(sets_, needle) != std::string::npos) {
      quoted = true;
      break;
    }
  }
  if (!quoted) return Source::kModelText;
  if (folded->author != ModelAuthor::kSubagent) return Source::kToolOutput;
  if (subagents_ == nullptr) {
    subagents_ = std::make_unique<SubagentTranscripts>(turn_.subagent_folder, quoted_spans_, subagent_depth_ + 1,
                                                       evidence_bytes_, expected_);
  }
  const SubagentTranscripts::Found found = subagents_->Find(SubagentIdIn(folded->call->output), fragment);
  return found == SubagentTranscripts::Found::kNotInToolOutput ? Source::kModelText : Source::kToolOutput;
}

void EvidenceIndex::Expect(const std::vector<std::string_view>& fragments) {
  std::vector<std::string> fresh;
  std::unordered_map<std::string, int> in_fresh;
  for (const std::string_view fragment : fragments) {
    std::string needle = FoldForMatch(fragment);
    if (needle.empty() || needles_.count(needle) != 0 || in_fresh.count(needle) != 0) continue;
    in_fresh.emplace(needle, static_cast<int>(fresh.size()));
    fresh.push_back(std::move(needle));
    expected_.emplace_back(fragment);
  }
  if (fresh.empty()) return;
  const int set = static_cast<int>(sets_.size());
  for (const auto& entry : in_fresh) needles_.emplace(entry.first, NeedleRef{set, entry.second});
  sets_.emplace_back(std::move(fresh));
}

NeedleRef EvidenceIndex::RefFor(const std::string& needle) {
  const auto it = needles_.find(needle);
  if (it != needles_.end()) return it->second;
  const NeedleRef ref{static_cast<int>(sets_.size()), 0};
  sets_.emplace_back(std::vector<std::string>{needle});
  needles_.emplace(needle, ref);
  return ref;
}

Sighting EvidenceIndex::Locate(std::string_view fragment) {
  Build();
  const std::string needle = FoldForMatch(fragment);
  if (needle.empty()) return Sighting{};
  // Asked again (another claim cites the same quote): the answer stands.
  if (const auto known = answers_.find(needle); known != answers_.end()) return known->second;
  const Sighting found = Search(RefFor(needle), fragment);
  answers_.emplace(needle, found);
  return found;
}

const ToolCall* EvidenceIndex::InSomeInput(NeedleRef needle) {
  for (Folded& folded : calls_) {
    if (folded.input.Find(sets_, needle) != std::string::npos) return folded.call;
  }
  return nullptr;
}

Sighting EvidenceIndex::Search(NeedleRef needle, std::string_view fragment) {
  constexpr std::size_t npos = std::string::npos;
  Sighting self_made;
  Sighting model_text;
  std::size_t next = 0;
  do {
    for (; next < calls_.size(); ++next) {
      Folded& folded = calls_[next];
      const std::size_t pos = folded.output.Find(sets_, needle);
      if (pos == npos) continue;
      const double share = SuppliedShare(folded, needle);
      // One word the agent typed (a path, a name) shown back is a
      // reference, as in the input itself: neither evidence nor made up.
      if (share >= kSelfMadeShare && IsOneWord(sets_[needle.set].needle(needle.needle)) &&
          InSomeInput(needle) != nullptr) {
        continue;
      }
      Source source = share >= kSelfMadeShare ? Source::kSelfMadeOutput : Source::kToolOutput;
      if (source == Source::kToolOutput && folded.author != ModelAuthor::kNone) {
        source = ModelOutputSource(&folded, needle, fragment);
      }
      Sighting& kept = source == Source::kModelText ? model_text : self_made;
      if (source == Source::kToolOutput || kept.call == nullptr) {
        kept = Sighting{source, folded.call, RawOffset(folded.call->output, pos), share};
      }
      if (source == Source::kToolOutput) return kept;
    }
  } while (LoadOneOlder());

  if (self_made.call != nullptr) return self_made;
  if (model_text.call != nullptr) return model_text;
  if (const ToolCall* call = InSomeInput(needle)) return Sighting{Source::kToolInput, call, 0};
  for (ScannedText& text : user_texts_) {
    if (text.Find(sets_, needle) != npos) return Sighting{Source::kUserMessage, nullptr, 0};
  }
  return Sighting{};
}

}  // namespace causegate::evidence
