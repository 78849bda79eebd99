// Where a quoted fragment appears in the session: the look-up behind every
// citation check (spec: judgement.md section 3).
//
// Locate searches the judged turn's tool output first and reads earlier
// turns from History only when the fragment is not found there. An
// occurrence counts as evidence unless it is self-made: mostly made of text
// the agent itself supplied at or before the call that shows it (a command
// line's words, a file it wrote, a subagent's prompt; supplied_coverage.h),
// whichever program printed it. A search's pattern is not such text (grep,
// rg, the Grep tool), so the log lines it finds stay evidence. Output a model wrote (model_output.h: a
// subagent's answer, a fetch tool's summary) counts only inside what that
// model quoted, and for a Claude Code subagent only where its own
// transcript's real tool output holds the quote too (or the transcript is
// not there); elsewhere in it the fragment is reported speech.
// Cost: every folded text is scanned once per set of needles (Expect: all
// the fragments of one message in one Aho-Corasick pass, needle_set.h),
// and each fragment's answer is kept, so asking again (another claim
// citing the same quote) costs a hash look-up. A fragment not announced by
// Expect is a set of its own.
// Thread-compatible: one index per judged turn.
// Tests: tests/unit/evidence/evidence_index_test.cc,
// tests/unit/evidence/model_output_test.cc.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "evidence/model_output.h"
#include "evidence/needle_set.h"
#include "evidence/scanned_text.h"
#include "evidence/supplied_coverage.h"
#include "evidence/turn.h"

namespace causegate::evidence {

enum class Source {
  kToolOutput,      // real tool output: the fragment is evidence
  kSelfMadeOutput,  // only in output that echoes the agent's own text
  kModelText,       // only in a model's own words in its output (a
                    // subagent's answer, a fetch summary): reported speech
  kToolInput,       // only in a command, path or pattern: a reference
  kUserMessage,     // only in the user's (or task) prompts
  kNowhere,         // nowhere in the session
};

const char* SourceName(Source source);

struct Sighting {
  Source source = Source::kNowhere;
  const ToolCall* call = nullptr;  // set for every source found in a tool call
  std::size_t offset = 0;          // byte offset in call->output (raw text)
  // For a hit in output: the share (0..1) of the fragment the agent itself
  // supplied before it (supplied_coverage.h); kSelfMadeShare or more makes
  // the hit self-made.
  double supplied_share = 0.0;
};

// "Mostly" made of the agent's own text (judgement.md section 3 rule 4):
// set where real quotes of test runs and logs stay evidence while echoed,
// formatted and split ones do not (rules/QUALITY.md, "self-made quotes").
inline constexpr double kSelfMadeShare = 0.6;

class SubagentTranscripts;

class EvidenceIndex {
 public:
  // REQUIRES: turn and history outlive the index; history may be null.
  // quoted_spans reads what a model quoted in its output; without it
  // nothing a model wrote counts as quoted, so no such output is evidence.
  EvidenceIndex(const Turn& turn, History* history, QuotedSpanFinder quoted_spans = {});
  ~EvidenceIndex();
  EvidenceIndex(const EvidenceIndex&) = delete;
  EvidenceIndex& operator=(const EvidenceIndex&) = delete;

  // The fragments Locate will be asked about (raw, as quoted): each text
  // of the session is then scanned once for all of them together.
  void Expect(const std::vector<std::string_view>& fragments);

  // fragment is raw text as quoted; it is folded here (text_fold.h).
  Sighting Locate(std::string_view fragment);

  // Tool calls of the judged turn, for findings such as no-probe.
  const Turn& turn() const { return turn_; }
  // Earlier turns loaded so far (grows as Locate reads back).
  int turns_loaded() const { return static_cast<int>(past_.size()); }

 private:
  struct Folded {
    const ToolCall* call;
    ScannedText output;  // folded
    ScannedText input;   // folded
    CallPlace place;
    ModelAuthor author;  // kNone unless a model wrote the output
    bool quoted_read;    // quoted holds the model's quoted spans
    std::vector<ScannedText> quoted;  // folded, read on the first hit
  };
  struct Supplied {      // text a call's input supplied, folded
    CallPlace place;
    std::string text;
  };
  struct Coverage {      // of one needle set, over supplied_[0, scanned)
    std::unique_ptr<SuppliedCoverage> of;
    std::size_t scanned = 0;
  };
  friend class SubagentTranscripts;  // builds the index of a subagent's file
  EvidenceIndex(const Turn& turn, History* history, QuotedSpanFinder quoted_spans, int subagent_depth,
                std::size_t* evidence_bytes);

  void Build();          // folds the judged turn, on the first Locate
  void Add(const ToolCall& call, int turns_back, std::size_t index);
  bool LoadOneOlder();
  NeedleRef RefFor(const std::string& needle);  // a set of its own when not expected
  Sighting Search(NeedleRef needle, std::string_view fragment);
  double SuppliedShare(const Folded& folded, NeedleRef needle);
  // A loaded call whose input holds the needle, or null.
  const ToolCall* InSomeInput(NeedleRef needle);
  // kToolOutput, or kModelText for a hit in a model's output that is
  // reported speech.
  Source ModelOutputSource(Folded* folded, NeedleRef needle, std::string_view fragment);

  const Turn& turn_;
  History* history_;
  QuotedSpanFinder quoted_spans_;
  int subagent_depth_;                    // 0: the session judged
  std::unique_ptr<SubagentTranscripts> subagents_;  // opened on first need
  std::deque<PastTurn> past_;             // stable addresses for loaded turns
  std::vector<Folded> calls_;             // folded view, judged turn first
  std::vector<Supplied> supplied_;        // the agent's own text, by call
  std::deque<Coverage> coverage_;         // per set, made on first need
  std::vector<ScannedText> user_texts_;   // folded prompts
  std::deque<NeedleSet> sets_;            // one per Expect (or lone Locate)
  std::unordered_map<std::string, NeedleRef> needles_;  // folded fragment -> its set
  std::unordered_map<std::string, Sighting> answers_;   // folded fragment -> Locate's answer
  std::vector<std::string> expected_;     // raw fragments, for subagents' indexes
  std::size_t own_evidence_bytes_ = 0;
  // Folded output kept, against kMaxEvidenceBytes: own_evidence_bytes_, or
  // the counter of the index whose subagent this index reads.
  std::size_t* evidence_bytes_;
  bool built_ = false;
  bool history_done_ = false;
};

}  // namespace causegate::evidence
