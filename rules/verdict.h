// The verdict on one turn (spec/judgement.md sections 3 and 4): every claim
// in the final message, the citations placed with it and where each was
// found in the session, the claim's finding, and the decision. This is the
// single judging call that the hook, the daemon, `check` and `explain` share.
// Tests: tests/unit/rules/verdict_test.cc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "evidence/evidence_index.h"
#include "evidence/turn.h"
#include "rules/claim_scorer.h"
#include "rules/claims.h"
#include "rules/guess_fix.h"
#include "rules/message.h"
#include "rules/protocol_steps.h"
#include "rules/rule_set.h"
#include "rules/shape_backstop.h"

namespace causegate::rules {

// In the spec's order of precedence: the first that holds is the finding.
enum class Finding {
  kSupported,   // a placed fragment was found in real tool output
  kFabricated,  // a placed fragment is nowhere in the session, or only self-made
  kUserOnly,    // a placed fragment is only in the user's words
  kNoProbe,     // no tool ran in the turn
  kNoCitation,  // tools ran; nothing they printed is quoted for this claim
};

const char* FindingName(Finding finding);

struct CitationCheck {
  int fragment = 0;                         // index into Message::fragments
  evidence::Source source = evidence::Source::kNowhere;
  // The tool call it was found in (output, self-made output or input).
  std::string call_id;
  std::string tool;
  std::string command;
  int turns_back = 0;
  std::int64_t line = 0;
  std::string excerpt;                      // the output line(s) around the match
};

struct Claim {
  int sentence = 0;          // index into Message::sentences
  int rule = -1;             // the claim rule that matched
  Finding finding = Finding::kSupported;
  std::vector<CitationCheck> citations;  // long-enough fragments placed with it
  bool chinese = false;      // language of the sentence
};

enum class Decision { kAllow, kBlock };

struct Verdict {
  Message message;
  std::vector<SentenceClass> sentences;  // parallel to message.sentences
  std::vector<ClaimScore> scores;        // parallel to message.sentences
  int diagnostic_rule = -1;              // rule that made the turn a diagnosis
  bool diagnosis_from_earlier_turn = false;  // the rule matched the prompt of the
                                             // turn this follow-up carries on
  std::vector<Claim> claims;             // supported and unsupported, in order
  Decision decision = Decision::kAllow;
  bool message_truncated = false;        // judged on a prefix (limits.h)
  // Distinct quotes past limits::kMaxFragmentsPerMessage: never looked up,
  // no citation for any claim.
  int fragments_past_cap = 0;
  int tool_calls = 0;                    // in the judged turn
  int turns_read_back = 0;               // earlier turns loaded for citations
  // Where the turn stands in the debug protocol (rules/protocol_steps.h):
  // its calls' steps, the symptoms, a stated hypothesis, supported claims.
  ProtocolSteps protocol;
  // An edit that fixes a merely hedged cause before any probe
  // (rules/guess_fix.h); the loop policy decides what it costs.
  GuessFix guess_fix;

  int unsupported() const;
  // The turn as the shape model reads it (rules/shape_backstop.h).
  ShapeTurn shape_turn() const { return {diagnostic_rule >= 0, tool_calls > 0}; }
  // Language for the reason: that of the first unsupported claim, else of
  // the guess-fix sentence, else of the first claim.
  bool chinese() const;
};

// Judges turn.final_message against the session. history may be null (no
// earlier turns). The verdict owns all its data (no pointers into turn).
// When the prompt follows up on earlier turns (rules/protocol_steps.h),
// those turns are read first for protocol tracking and then handed to the
// citation look-up, so each is read from history once.
// scorer and shapes are the claim scorer's and the sentence-shape model's
// weights (rules/shape_backstop.h).
Verdict JudgeTurn(const evidence::Turn& turn, evidence::History* history, const RuleSet& rules,
                  const ClaimScorer& scorer = ClaimScorer::Default(),
                  const ClaimScorer& shapes = ClaimScorer::ShapeModel());

}  // namespace causegate::rules
