// Rule packs: the JSON files that hold every pattern the gate uses. The
// format is documented in rules/FORMAT.md; default packs (rules/packs/) are
// compiled into the binary and a folder given with --rules adds packs or
// replaces a default pack of the same name.
// Tests: tests/unit/rules/pack_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "evidence/status.h"

namespace causegate::rules {

enum class RuleKind {
  kClaim,             // an assertive causal connective or cause phrase
  kHedge,             // marks the sentence as a hypothesis
  kQuestion,          // exemption: a question
  kConditional,       // exemption: if / whether / unless
  kNegation,          // exemption: rules a cause out
  kUncertainty,       // exemption: "I don't know yet"
  kRationale,         // exemption: the agent explains its own edit
  kDiagnosticPrompt,  // the user's prompt asks for a diagnosis
  kFailureWord,       // the sentence names a failure (a claim in any turn)
  kEvidenceMarker,    // a line that opens the evidence section
  kStep,              // a tool call is a protocol step (probe, smoke test, ...)
  kSymptom,           // a failure symptom in the prompt or tool output
  kFeature,           // a named trait of a sentence the claim scorer weighs
                      // (rules/claim_scorer.h); the name is the rule's tag
};

inline constexpr int kRuleKindCount = 13;

const char* RuleKindName(RuleKind kind);
// Parses a kind name as written in a pack ("claim", "diagnostic-prompt").
bool ParseRuleKind(std::string_view name, RuleKind* kind);

struct Rule {
  std::string id;           // unique across all loaded packs: "en.claim.because"
  RuleKind kind = RuleKind::kClaim;
  std::string pattern;      // RE2 syntax, matched case-insensitively
  std::string description;
  std::string tag;          // free label for kinds that need one (step kind,
                            // symptom name); "" otherwise
  std::vector<std::string> must_match;
  std::vector<std::string> must_not_match;
  std::string pack;         // the pack's name
  std::string file;         // where it was loaded from ("<builtin>/en.json")
  int line = 0;             // 1-based line of the rule's "id" in that file
};

struct Pack {
  std::string name;         // "en", "zh", or a user pack's name
  std::string version;
  std::string lang;         // "en", "zh" or "any"
  std::string description;
  std::string file;
  std::vector<Rule> rules;
};

// Parses one pack from its JSON text. file names it in errors, which read
// "file:line: rule \"id\": what" or "file:line: what".
Status ParsePack(std::string_view json_text, const std::string& file, Pack* pack);

// Reads and parses a pack file.
Status LoadPackFile(const std::string& path, Pack* pack);

// The packs compiled into the binary, in a fixed order.
std::vector<Pack> DefaultPacks();

// Default packs plus every *.json in dir (sorted by name); a pack whose name
// matches a default replaces it. dir may be "" for defaults only.
Status LoadPacks(const std::string& dir, std::vector<Pack>* packs);

}  // namespace causegate::rules
