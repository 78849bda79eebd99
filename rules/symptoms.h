// Failure symptoms (rules/packs/symptoms.json, kind "symptom", the tag is
// the symptom's name: oom, nan, hang, slowdown, crash, gpu-idle, data,
// distributed, disk-full, or a user pack's own). They are read from the
// user's prompt, from the agent's unsupported claims (what it suspects) and
// from a bounded head and tail of each tool output; the first in
// MergeSymptoms' order picks the protocol's next step
// (rules/protocol_advice.h).
// Tests: tests/unit/rules/protocol_symptoms_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/turn.h"
#include "rules/rule_set.h"

namespace causegate::rules {

// Where a symptom was read, in the order that ranks them.
enum class SymptomSource {
  kClaim,       // an unsupported claim of the final message: what the agent suspects
  kPrompt,      // the user's prompt (a subagent's task prompt)
  kToolOutput,  // the output of a tool call
};

const char* SymptomSourceName(SymptomSource source);  // "claim", "prompt", "tool_output"

struct Symptom {
  std::string name;        // the rule's tag
  int rule = -1;
  SymptomSource source = SymptomSource::kPrompt;
  std::string call_id;     // kToolOutput: the call whose output shows it
  std::string call_label;  // ... and its short name ("dmesg")
  std::size_t offset = 0;  // where the first matching rule matched in its text
};

// Every symptom in text, one per name, in order of where it first matches.
std::vector<Symptom> SymptomsInText(const RuleSet& rules, std::string_view text, SymptomSource source);

// The symptoms in a tool's output, scanning at most the first and the last
// limits::kSymptomScanBytes of it.
std::vector<Symptom> SymptomsInOutput(const RuleSet& rules, const evidence::ToolCall& call, const std::string& call_id,
                                      const std::string& call_label);

// crash, hang, slowdown and gpu-idle: what a failure looks like rather than
// a mechanism that explains it.
bool IsEffectSymptom(std::string_view name);

// Adds found to *all, keeping one symptom per (name, source) and the order:
// mechanisms before effects (IsEffectSymptom), then claims, the prompt and
// tool output, then the order they were found in.
void MergeSymptoms(std::vector<Symptom> found, std::vector<Symptom>* all);

// The symptom that picks the next step: the first of all, or null.
const Symptom* PrimarySymptom(const std::vector<Symptom>& all);

}  // namespace causegate::rules
