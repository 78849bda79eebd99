// A compiled, immutable set of rules. Each rule is compiled once as its own
// RE2 (for error reporting, `rules test` and match spans) and into one
// RE2::Set per target text, so classifying a sentence is one pass over it
// whatever the number of rules. Shared between threads as
// shared_ptr<const RuleSet>; a reload swaps the pointer.
// Tests: tests/unit/rules/rule_set_test.cc.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/status.h"
#include "rules/pack.h"

namespace re2 {
class RE2;
}  // namespace re2

namespace causegate::rules {

// What text a rule kind is matched against; one RE2::Set each.
enum class Target {
  kSentence,  // a prose sentence of the final message (masked)
  kPrompt,    // the user's prompt (is the turn a diagnosis?)
  kSymptom,   // the prompt, a claim or a tool output (which symptoms it names)
  kLine,      // a line of the final message (evidence markers)
  kCommand,   // a tool call: "Name: command"
};
inline constexpr int kTargetCount = 5;
Target TargetOf(RuleKind kind);

// Rules that matched one text, by kind: first matching rule in pack order.
struct Hits {
  std::vector<int> rules;  // every matching rule index, ascending
  std::array<int, kRuleKindCount> first;  // -1 when no rule of the kind matched

  Hits() { first.fill(-1); }
  bool Has(RuleKind kind) const { return first[static_cast<std::size_t>(kind)] >= 0; }
  int First(RuleKind kind) const { return first[static_cast<std::size_t>(kind)]; }
};

struct CompileOptions {
  // RE2 memory budget per pattern; a pattern past it is refused at load.
  int64_t max_mem_per_rule = 2 << 20;
  // At most this many rules across all packs.
  std::size_t max_rules = 20000;
  // Compile a rule only when a text of its target first contains its
  // required literals (rules/required_literals.h), instead of every rule
  // at load: the rules a text needs that no earlier set holds become one
  // more RE2::Set. A rule that cannot match a text is never in a set
  // matched against it, so hits are those of the eager sets. Built-in
  // patterns are parsed then too (the build's tests parse them); other
  // packs' are parsed at load, so their syntax errors surface there. A
  // set that does not compile is logged at its first use and its rules
  // match nothing. For one-shot callers (the hook): compiling is most of
  // a hook call's cost. Lint, serve and check compile eagerly.
  bool lazy = false;
  // With lazy: FirstMatch compiles the rules it may need one at a time, in
  // pack order, and stops at the first that matches, where Match compiles
  // every rule whose words the text holds. For a process that judges one
  // turn and exits (the hook); a long-lived one would keep a set per rule
  // and pay one pass per set on every later text.
  bool staged_first_match = false;
};

class RuleSet {
 public:
  // Compiles every rule of packs. Errors name the rule:
  // "file:line:column: rule \"id\": pattern: missing )". An id used twice
  // is an error naming both places (DuplicateId in rules/pack.h).
  static Status Compile(std::vector<Pack> packs, const CompileOptions& options,
                        std::shared_ptr<const RuleSet>* out);
  static Status Compile(std::vector<Pack> packs, std::shared_ptr<const RuleSet>* out) {
    return Compile(std::move(packs), CompileOptions(), out);
  }

  ~RuleSet();
  RuleSet(const RuleSet&) = delete;
  RuleSet& operator=(const RuleSet&) = delete;

  // One RE2::Set pass per script the text may need. Thread-safe. Rules of
  // packs whose lang is "zh" are tried only on text that contains CJK
  // characters (rules/FORMAT.md), so English text never pays for them.
  Hits Match(Target target, std::string_view text) const;
  // The first rule in pack order that wanted takes and that matches text
  // (a rule of target), or -1. Staged (CompileOptions::staged_first_match):
  // compiles only the wanted rules up to that one; otherwise the first
  // wanted rule of Match's hits. Thread-safe.
  int FirstMatch(Target target, std::string_view text, const std::function<bool(const Rule&)>& wanted) const;
  bool staged_first_match() const;
  // How many rules of target are compiled so far (all of them when eager):
  // what lazy callers have paid, for tests.
  std::size_t CompiledRuleCount(Target target) const;
  // Hits made of rule indices gathered elsewhere (several texts' hits
  // merged): sorted, each once, with the first rule of each kind.
  Hits HitsOf(std::vector<int> rules) const;

  // True when rule i matches text; *begin/*end (optional) get the span.
  bool MatchRule(int i, std::string_view text, std::size_t* begin = nullptr,
                 std::size_t* end = nullptr) const;

  const Rule& rule(int i) const { return rules_[static_cast<std::size_t>(i)]; }
  const std::vector<Rule>& rules() const { return rules_; }
  const std::vector<Pack>& packs() const { return packs_; }
  // Index of the rule with this id, or -1.
  int FindRule(std::string_view id) const;
  // A number no other RuleSet of this process has had: what a rule set
  // found in a text is kept under it (rules/symptom_cache.h), so a
  // reloaded or per-turn rule set never reads another one's entries.
  std::uint64_t serial() const { return serial_; }

 private:
  RuleSet();
  struct Compiled;
  struct Slot;
  struct Chunk;  // one RE2::Set of some of a slot's rules
  // Lazy mode: other packs' syntax checked; the literal filter waits for
  // the slot's first text (ChunksFor).
  Status PrepareLazy(Slot* slot) const;
  // Parses and compiles chunk's rules into its set; on failure chunk->ok
  // is false and the status names the rule when one is to blame.
  Status CompileChunk(const Slot& slot, Chunk* chunk) const;
  // The sets to match text against: every set (eager), or those holding a
  // rule text could match, compiling the rules no set holds yet (lazy).
  void ChunksFor(Slot& slot, std::string_view text, std::vector<const Chunk*>* out) const;
  // Lazy: the slot's literal filter, read at its first text.
  void PrepareFilter(Slot& slot) const;
  // Lazy: the set that holds the slot's rule at index, compiling that rule
  // alone into a set of its own when none does yet.
  const Chunk* ChunkHolding(Slot& slot, int index) const;
  // Lazy, with slot.mutex held: compiles the slot's rules at indices (none
  // in a set yet) into one more set and returns its index in slot.chunks.
  int AddChunk(Slot& slot, const std::vector<int>& indices) const;
  std::vector<Pack> packs_;  // rules moved out; metadata only
  std::vector<Rule> rules_;
  std::unique_ptr<Compiled> compiled_;
  std::uint64_t serial_;
};

// Loads and compiles: default packs plus the packs at path (a pack file or
// a folder of them; "" for the defaults only), as LoadPacks joins them.
Status LoadRuleSet(const std::string& path, std::shared_ptr<const RuleSet>* out);
Status LoadRuleSet(const std::string& path, const CompileOptions& options, std::shared_ptr<const RuleSet>* out);

// Why pattern does not compile on its own within options' budget, in RE2's
// words ("missing ): (blame"), or "" when it does. For `rules lint`, which
// names each bad pattern instead of the first; *program_size (optional)
// gets how many RE2 instructions it compiles to (0 when it does not), what
// a hook call pays to compile the rule grows with.
std::string PatternError(const std::string& pattern, const CompileOptions& options, int* program_size = nullptr);

}  // namespace causegate::rules
