// The one call behind every live front-end: hook input text in, the agent's
// answer text out. Parse the input (gate/hook_input.h), read the turn from
// the transcript (from its end), judge it (rules/verdict.h), apply the loop
// policy (rules/loop_policy.h), render the agent's answer. `causegate hook`
// prints GateResult::output; the daemon sends it as the HTTP body.
//
// Fails open: when the input cannot be parsed or the transcript cannot be
// read, the result allows (output "") and fail_open_reason says why.
// May sleep while the agent finishes writing its transcript: up to
// kClaudeCodeTranscriptWait / kCopilotTranscriptWait, never for a turn that
// is whole at the first read (gate/transcript_wait.h); read_ms includes it.
// Thread-safe for concurrent calls sharing one RuleSet. A session's loop
// counter is read and written under its lock (gate/state_lock.h), so
// concurrent stops of one session, here or in another process sharing the
// state folder, each count the blocks the others sent.
// Tests: tests/unit/gate/gate_test.cc and tests/e2e.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "evidence/turn.h"
#include "gate/hook_input.h"
#include "gate/turn_config.h"
#include "rules/loop_policy.h"
#include "rules/rule_set.h"
#include "rules/verdict.h"

namespace causegate::gate {

struct GateOptions {
  rules::LoopPolicy loop;
  // The claim scorer's weights; null: the embedded ones (eval --weights
  // tries a refit without a rebuild).
  const rules::ClaimScorer* scorer = nullptr;
  // The sentence-shape model's weights; null: the embedded ones (eval
  // --shape-weights, for bench/quality/fit_shapes.py's folds).
  const rules::ClaimScorer* shapes = nullptr;
  // Whether a turn the agent is still writing is read again before it is
  // judged (gate/transcript_wait.h). The daemon keeps the default: the
  // wait sleeps only the worker serving that request.
  TranscriptWait transcript_wait = TranscriptWait::kWhileLagging;
  // The user's config for this turn (gate/turn_config.h), asked once the
  // turn is read and before it is judged: the rules, the loop policy, the
  // mode and the "warn" rules come from it, so that a config file the
  // agent edited in the turn can be left out of it. Unset: the rules and
  // loop given to RunGate, no config.
  std::function<TurnConfig(const HookRequest&, const evidence::Turn&)> configure;
  // The folder of the per-session state (gate/state_dir.h): loop counters
  // and session logs. "": StateDir(), from the environment at each call.
  // Daemons sharing one folder give the same answers as one daemon.
  std::string state_dir;
};

// Why an answer is let through unjudged (RunGate's GateResult::not_judged,
// `check`): Claude Code's compaction summaries are no agent's answer.
inline constexpr std::string_view kCompactionSummaryNote =
    "compaction summary: not an agent's answer (spec section 3)";

// kCompactionSummaryNote when the stop is a compaction summary's, else "":
// from the request before the transcript is read (a SubagentStop's
// agent_id or agent_transcript_path names an acompact-* agent), and from
// the turn read (Turn::compaction_summary).
std::string_view NotJudgedReason(const HookRequest& request);
std::string_view NotJudgedReason(const evidence::Turn& turn);

// Why RunGate failed open (GateResult::fail_open), for the daemon's metrics.
enum class FailOpen {
  kNone,
  kBadInput,    // the hook input did not parse
  kTranscript,  // the turn could not be loaded from its transcript
};

struct GateResult {
  bool judged = false;           // false: failed open before a verdict
  bool recorded = false;         // an observe-only event was logged (Cursor,
                                 // Copilot); for those judged is true and
                                 // nothing was judged
  std::string not_judged;        // set when the answer is no agent's (a
                                 // compaction summary): judged is true, the
                                 // verdict empty, the stop allowed
  std::string fail_open_reason;  // set when !judged
  FailOpen fail_open = FailOpen::kNone;  // and why, as a kind
  bool skipped_by_config = false;  // not_judged is the config's skip (mode
                                   // off, the user's skip token), logged by
                                   // the configure call
  HookRequest request;
  evidence::Turn turn;
  rules::Verdict verdict;
  int prior_blocks = 0;          // blocks already sent in this turn
  rules::Outcome outcome;
  bool downgraded_by_config = false;  // the outcome would have blocked (or
                                      // counted warned claims): mode or rule
                                      // "warn" let it through with a message
  std::string output;            // the agent's answer ("" = silent allow)
  double read_ms = 0;            // parsing input + reading the transcript
  double judge_ms = 0;           // verdict + reason
};

GateResult RunGate(std::string_view input, Agent agent, const rules::RuleSet& rules,
                   const GateOptions& options);

// RunGate for an input its caller has already parsed with ParseHookInput
// (the daemon does, to check the transcript paths against its roots before
// anything opens them): the same steps and answer, without parsing the
// input a second time (about 60 K instructions a stop in the daemon,
// bench/RESULTS.md finding 11). read_ms then starts here.
GateResult RunGateParsed(HookRequest request, const rules::RuleSet& rules, const GateOptions& options);

// Blocks the gate already sent in this turn, from the transcript's feedback
// lines and the agent's continuation flag.
int PriorBlocks(const evidence::Turn& turn, bool continuing);

}  // namespace causegate::gate
