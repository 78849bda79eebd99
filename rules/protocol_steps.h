// Where a turn stands in the seed's debug protocol: probe -> hypothesis ->
// smoke test -> control -> assert. Each tool call, written "Tool: command",
// is classified by the step rules (rules/packs/steps.json, kind "step"; the
// tag names the step: "probe:<kind>", "smoke", "control", "edit"). A re-run
// of an earlier failing command with exactly one flag or value changed is a
// control whatever the rules say (rules/command_words.h). Narration and the
// final message are read for a hypothesis stated as one (tag "hypothesis",
// or a hedged causal sentence). A prompt matching a "follow-up" rule ("so
// why did it die?") continues the diagnosis of the turns before it, whose
// calls then count too (at most limits::kMaxStepTurnsBack of them).
// Tests: tests/unit/rules/protocol_steps_test.cc.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/turn.h"
#include "rules/rule_set.h"
#include "rules/symptoms.h"

namespace causegate::rules {

// What one tool call does for the protocol.
enum class CallStep {
  kOther,    // none of the below
  kProbe,    // reads state: process, logs, GPU, disk, artefacts, config, code
  kSmoke,    // re-runs the failing thing small and controlled
  kControl,  // re-runs with one variable changed against a failing run
  kEdit,     // changes code or config (not a protocol step; see guess_fix.h)
};

const char* CallStepName(CallStep step);  // "other", "probe", "smoke", "control", "edit"

// Step rule tags other than "probe:<kind>".
inline constexpr std::string_view kTagSmoke = "smoke";
inline constexpr std::string_view kTagControl = "control";
inline constexpr std::string_view kTagEdit = "edit";
inline constexpr std::string_view kTagHypothesis = "hypothesis";  // narration
inline constexpr std::string_view kTagGuess = "guess";            // narration: "let me try"
inline constexpr std::string_view kTagFollowUp = "follow-up";     // the prompt
inline constexpr std::string_view kTagProbePrefix = "probe:";

struct StepCall {
  std::string id;          // the call's id, or "#N" (its position in calls) when it has none
  std::string tool;
  std::string command;     // shortened for people
  std::string label;       // "dmesg", "kubectl describe", "Read train.log"
  int turns_back = 0;      // 0: the judged turn
  CallStep step = CallStep::kOther;
  std::string probe_kind;  // kProbe: the tag after "probe:" ("gpu", "system-log", ...)
  int rule = -1;           // the step rule that decided; -1 for kOther and a control found by comparison
  int baseline = -1;       // a control found by comparison: index in calls of the failing run
  std::string changed;     // ... and the one thing that differs ("--bs 8 -> 4", "+ --no-amp")
  bool failed = false;     // is_error, or a symptom in its output
};

enum class ProtocolStep { kProbe, kHypothesis, kSmoke, kControl, kAssert };
inline constexpr int kProtocolStepCount = 5;
const char* ProtocolStepName(ProtocolStep step);  // "probe", "hypothesis", "smoke", "control", "assert"

struct StepEvidence {
  bool seen = false;
  std::vector<std::string> tool_calls;  // ids of the calls that show it (probe, smoke, control, assert)
  std::string text;                     // hypothesis: the first sentence that states one
  int rule = -1;                        // hypothesis: the rule that matched it
};

// The protocol's next step for the agent, in the protocol's order.
enum class NextStep {
  kProbe,            // nothing probed yet, or only code and config read
  kHypothesisSmoke,  // probed: state a hypothesis and smoke-test it
  kSmoke,            // hypothesis stated: smoke-test it
  kControl,          // smoke-tested: change one variable and rerun
  kCite,             // all steps run: quote the output that proves the cause
};
const char* NextStepName(NextStep step);  // "probe", "hypothesis+smoke", "smoke", "control", "cite"

struct ProtocolSteps {
  std::vector<StepCall> calls;  // session order: earlier turns of the diagnosis first
  int follow_up_rule = -1;      // the rule that made the prompt a follow-up, or -1
  int earlier_turns = 0;        // earlier turns whose calls are in calls
  std::array<StepEvidence, kProtocolStepCount> steps;
  std::vector<Symptom> symptoms;  // claims first, then the prompt, then tool output

  const StepEvidence& step(ProtocolStep s) const { return steps[static_cast<std::size_t>(s)]; }
  StepEvidence& step(ProtocolStep s) { return steps[static_cast<std::size_t>(s)]; }
  bool nothing_done() const { return calls.empty(); }
  // Distinct probe kinds run, in the order first seen.
  std::vector<std::string> ProbeKinds() const;
  // The primary symptom's key probe kinds (KeyProbeKinds) when none of
  // them was run; empty when one was, or when there is no symptom.
  std::vector<std::string_view> UnprobedKeyKinds() const;
  // kProbe while nothing but code and config was read and nothing re-run;
  // then a hypothesis and a smoke test, a control, and citing.
  NextStep next() const;
};

// The probe kinds the seed looks at first for a symptom ("oom": system-log,
// gpu, process); a symptom no table knows gets process, system-log, app-log.
std::vector<std::string_view> KeyProbeKinds(std::string_view symptom);

// The step rule tagged `tag` that first matches text, or -1.
int FirstTaggedRule(const RuleSet& rules, std::string_view text, std::string_view tag);

// The "follow-up" rule that matches the prompt, or -1.
int FollowUpRule(const RuleSet& rules, std::string_view prompt);

// When the prompt follows up on earlier turns, reads them from history
// (newest first): the turn before, and further back while each turn's own
// prompt is a follow-up too, at most limits::kMaxStepTurnsBack turns.
std::vector<evidence::PastTurn> LoadDiagnosisTurns(const RuleSet& rules, std::string_view prompt,
                                                   evidence::History* history);

// Classifies one call by the step rules alone (no comparison).
StepCall ClassifyCall(const RuleSet& rules, const evidence::ToolCall& call);

// Tracks the protocol over the turn's calls and those of earlier (newest
// first, as LoadDiagnosisTurns returns them): classifies every call, finds
// controls by comparison, reads symptoms in the prompt and in tool output,
// and a stated hypothesis in the narration. The final message's part
// (hypothesis, suspected symptoms, assert) is added by the verdict.
ProtocolSteps TrackSteps(const RuleSet& rules, const evidence::Turn& turn,
                         const std::vector<evidence::PastTurn>& earlier);

// Records a hypothesis sentence (narration or final message) if none yet.
void NoteHypothesis(std::string_view sentence, int rule, ProtocolSteps* steps);

// One line for people (`eval --steps`, `explain`): each step, seen or not,
// with the calls that show it, the symptoms and the next step.
std::string StepSummaryLine(const ProtocolSteps& steps);

}  // namespace causegate::rules
