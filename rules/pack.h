// Rule packs: the JSON files that hold every pattern the gate uses. The
// format is documented in rules/FORMAT.md; default packs (rules/packs/) are
// compiled into the binary and --rules (a pack file, or a folder of them)
// adds packs or replaces a default pack of the same name. Reading a pack
// collects every problem it has, each with its file, line and column, so
// `rules lint` can list them all; loading refuses a pack with any.
// Tests: tests/unit/rules/pack_test.cc, pack_problems_test.cc.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/status.h"
#include "rules/json_positions.h"

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
  std::string description;  // one line for people: what the rule is for
                            // ("" when the pack gives none; see RulePurpose)
  std::string note;         // for pack authors: how the pattern is written
  std::string tag;          // free label for kinds that need one (step kind,
                            // symptom name); "" otherwise
  std::vector<std::string> must_match;
  std::vector<std::string> must_not_match;
  std::string pack;         // the pack's name
  std::string file;         // where it was loaded from ("<builtin>/en.json")
  int line = 0;             // 1-based line of the rule's "id" in that file
  int column = 0;           // 1-based column (characters) of that id
  TextPosition pattern_at;  // of its "pattern" key, when known (a user's
                            // pack; {0, 0} for the packs compiled in)
};

// Where a problem of rule's pattern is: its "pattern" key, else its id.
TextPosition PatternPosition(const Rule& rule);

struct Pack {
  std::string name;         // "en", "zh", or a user pack's name
  std::string version;
  std::string lang;         // "en", "zh" or "any"
  std::string description;
  std::string file;
  std::vector<Rule> rules;
  int line = 0;             // where its "pack" field is (0: not looked up,
  int column = 0;           // as for the packs compiled in)
};

// The file name the packs compiled into the binary are known by:
// "<builtin>/en.json" (the same file as rules/packs/en.json, line for line).
inline constexpr std::string_view kBuiltinPrefix = "<builtin>/";
bool IsBuiltinFile(std::string_view file);

// One problem of a pack: where it is and what is wrong.
struct PackProblem {
  std::string file;   // "" for a problem of all packs together
  int line = 0;       // 1-based; 0 when not known
  int column = 0;     // 1-based, in characters; 0 when not known
  std::string rule;   // the rule's id; "" for a problem of the pack itself
  std::string what;

  // "file:line:column: rule \"id\": what", leaving out what is not known.
  std::string Message() const;
};

// The problem of a rule whose id an earlier rule already has, naming both
// places: "team.json:8:13: rule \"en.claim.because\": duplicate id: also in
// the built-in pack \"en\" at <builtin>/en.json:42:13 (...)". Loading and
// `rules lint` both use it, so they say the same.
PackProblem DuplicateId(const Rule& rule, const Rule& first);

// One line, or the first of several: "problem (and 2 more: run causegate
// rules lint PATH)". REQUIRES: !problems.empty().
std::string SummarizeProblems(const std::vector<PackProblem>& problems, const std::string& path);

// How closely ReadPack reads a pack.
enum class PackCheck {
  kFull,     // also scans the text for a key written twice in one object
  kTrusted,  // the packs compiled in, which the tests lint: no second scan
             // unless there is a problem to locate, so a hook call does not
             // pay for one
};

// A pack as read from its text, with every problem found.
struct PackReading {
  Pack pack;                          // its rules: those without a problem
  std::vector<PackProblem> problems;  // in the order of the text
  std::size_t entries = 0;            // items of its "rules" array
  std::vector<std::size_t> entry_of;  // entry_of[k]: the item pack.rules[k] came from
  std::unique_ptr<JsonPositions> positions;  // set with kFull (and on a problem)

  // Where a field of an item of "rules" is ("" for the item itself), or
  // {0, 0} when positions were not kept.
  TextPosition RuleField(std::size_t entry, std::string_view field) const;
};

// Parses one pack from its JSON text, recording every problem instead of
// stopping at the first. file names it in problems. Never throws.
PackReading ReadPack(std::string_view json_text, const std::string& file, PackCheck check);

// ReadPack with PackCheck::kFull, for a caller that takes a pack or
// nothing: an error is SummarizeProblems of its problems, which read
// "file:line:column: rule \"id\": what" or "file:line:column: what".
Status ParsePack(std::string_view json_text, const std::string& file, Pack* pack);

// Reads a pack file's text (at most the size a pack may have, and a little
// more so that ReadPack can say it is too large).
Status ReadPackText(const std::string& path, std::string* text);

// Reads and parses a pack file.
Status LoadPackFile(const std::string& path, Pack* pack);

// The pack files at path: path itself when it is a file, the *.json in it
// (sorted by name) when it is a folder. An error when it is neither.
Status PackFiles(const std::string& path, std::vector<std::string>* files);

// The packs compiled into the binary, in a fixed order.
std::vector<Pack> DefaultPacks();

// Adds user packs, in order, to *packs (the defaults) as loading does: a
// pack whose name matches a default replaces it. Returns the problems of
// the result: a user pack named like an earlier user pack (left out), and
// every rule whose id an earlier rule has (DuplicateId). Empty when the
// packs can be used together.
std::vector<PackProblem> JoinPacks(std::vector<Pack> user, std::vector<Pack>* packs);

// Default packs plus the packs at path (PackFiles: a pack file or a folder
// of them; "" for defaults only), joined by JoinPacks. An error names the
// first problem and how many more there are.
Status LoadPacks(const std::string& path, std::vector<Pack>* packs);

// What a rule is for, in a user's words: its description, or when it has
// none a sentence said from its kind and tag ("Causal language: ...").
std::string RulePurpose(const Rule& rule);

}  // namespace causegate::rules
