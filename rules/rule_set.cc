// Compiling packs into RE2 objects and one RE2::Set per target. Every rule
// is matched case-insensitively in UTF-8 with RE2's linear-time guarantee,
// so a third-party pack cannot stall the gate; the memory budget per pattern
// bounds what one pattern can cost.
#include "rules/rule_set.h"

#include "rules/literal_table.h"
#include "rules/required_literals.h"

#include <re2/re2.h>
#include <re2/set.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

namespace causegate::rules {

// Some rules of one slot, as one RE2::Set.
struct RuleSet::Chunk {
  std::vector<int> rules;  // set index -> rule index
  std::unique_ptr<re2::RE2::Set> set;
  bool ok = true;  // false: does not compile (lazy mode only)
};

// The rules of one target and script. Eager: one chunk of them all,
// compiled at load. Lazy: the chunks that texts needed, each made of the
// rules a text could match (LiteralFilter) that no earlier chunk holds, so
// no rule is parsed or compiled before a text needs it, nor twice.
struct RuleSet::Slot {
  std::vector<int> rules;  // slot index -> rule index
  int64_t max_mem = 0;     // RE2 budget of each set, sized for all the rules
  bool lazy = false;
  // Lazy: by slot index, what a text must hold; read at the slot's first
  // text, so a slot no text reaches (the zh rules of an English turn)
  // never reads its patterns.
  LiteralFilter filter;
  std::once_flag filter_once;
  std::mutex mutex;      // lazy: guards chunks and chunk_of while they grow
  std::vector<std::unique_ptr<Chunk>> chunks;
  std::vector<int> chunk_of;  // lazy: slot index -> chunk, -1 until needed
};

struct RuleSet::Compiled {
  // One RE2 per rule, compiled on first use: judging needs only the sets,
  // and compiling every rule twice would double the start-up cost of a
  // hook call. explain, `rules test` and match spans pay for theirs.
  struct Lazy {
    std::once_flag once;
    std::unique_ptr<re2::RE2> re;
  };
  std::vector<std::unique_ptr<Lazy>> regexes;
  re2::RE2::Options options;
  // [target][script]: kAnyScript for every text, kCjkScript only for text
  // with CJK characters.
  std::array<std::array<Slot, 2>, kTargetCount> slots;
  std::unordered_map<std::string, int> by_id;
  bool staged_first_match = false;  // CompileOptions, with lazy
};

namespace {

re2::RE2::Options RuleOptions(const CompileOptions& options) {
  re2::RE2::Options o;
  o.set_encoding(re2::RE2::Options::EncodingUTF8);
  o.set_case_sensitive(false);
  o.set_log_errors(false);
  o.set_max_mem(options.max_mem_per_rule);
  return o;
}

// "file:line:column: rule \"id\": pattern: what", as `rules lint` says it.
Status PatternProblem(const Rule& rule, const std::string& error) {
  const TextPosition at = PatternPosition(rule);
  return Status::Error(PackProblem{rule.file, at.line, at.column, rule.id, "pattern: " + error}.Message());
}

constexpr std::size_t kAnyScript = 0;
constexpr std::size_t kCjkScript = 1;

// A byte that starts a UTF-8 sequence at U+3000 or above: every CJK
// character, punctuation mark and full-width form. A superset is fine; it
// only means a set is tried that cannot match.
bool MayHaveCjk(std::string_view text) {
  for (const char ch : text) {
    if (static_cast<unsigned char>(ch) >= 0xE3) return true;
  }
  return false;
}

}  // namespace

Target TargetOf(RuleKind kind) {
  switch (kind) {
    // Apart: symptoms are read in every tool output, and a diagnostic-prompt
    // rule a tool output's words call for would be compiled for nothing.
    case RuleKind::kDiagnosticPrompt:
      return Target::kPrompt;
    case RuleKind::kSymptom:
      return Target::kSymptom;
    case RuleKind::kEvidenceMarker:
      return Target::kLine;
    case RuleKind::kStep:
      return Target::kCommand;
    default:
      return Target::kSentence;
  }
}

RuleSet::RuleSet() : compiled_(std::make_unique<Compiled>()) {
  static std::atomic<std::uint64_t> next_serial{1};
  serial_ = next_serial.fetch_add(1, std::memory_order_relaxed);
}
RuleSet::~RuleSet() = default;

Status RuleSet::Compile(std::vector<Pack> packs, const CompileOptions& options,
                        std::shared_ptr<const RuleSet>* out) {
  std::shared_ptr<RuleSet> set(new RuleSet());
  Compiled& c = *set->compiled_;
  c.options = RuleOptions(options);
  c.staged_first_match = options.lazy && options.staged_first_match;
  for (Pack& pack : packs) {
    const std::size_t script = pack.lang == "zh" ? kCjkScript : kAnyScript;
    for (Rule& rule : pack.rules) {
      if (set->rules_.size() >= options.max_rules) {
        return Status::Error(pack.file + ": more than " + std::to_string(options.max_rules) + " rules in all packs");
      }
      const int index = static_cast<int>(set->rules_.size());
      if (const auto [first, inserted] = c.by_id.emplace(rule.id, index); !inserted) {
        // LoadPacks refuses this first, in the same words (rules/pack.h).
        return Status::Error(DuplicateId(rule, set->rules_[static_cast<std::size_t>(first->second)]).Message());
      }
      c.slots[static_cast<std::size_t>(TargetOf(rule.kind))][script].rules.push_back(index);
      c.regexes.push_back(std::make_unique<Compiled::Lazy>());
      set->rules_.push_back(std::move(rule));
    }
    pack.rules.clear();
  }
  for (auto& by_script : c.slots) {
    for (Slot& slot : by_script) {
      if (slot.rules.empty()) continue;
      // The budget grows with the number of rules, so a big pack is not
      // refused for its size alone; one rule still gets max_mem_per_rule.
      // A lazy slot's sets each get the whole slot's budget: memory is
      // taken as used, and a set of fewer rules then never has less room
      // than the one set of all of them would.
      slot.max_mem = std::min<int64_t>(options.max_mem_per_rule * static_cast<int64_t>(slot.rules.size()),
                                       int64_t{256} << 20);
      slot.lazy = options.lazy;
      if (options.lazy) {
        if (Status s = set->PrepareLazy(&slot); !s.ok()) return s;
        continue;
      }
      auto chunk = std::make_unique<Chunk>();
      chunk->rules = slot.rules;
      if (Status s = set->CompileChunk(slot, chunk.get()); !s.ok()) return s;
      slot.chunks.push_back(std::move(chunk));
    }
  }
  set->packs_ = std::move(packs);
  *out = std::move(set);
  return Status::Ok();
}

Status RuleSet::PrepareLazy(Slot* slot) const {
  slot->chunk_of.assign(slot->rules.size(), -1);
  // Built-in patterns are parsed by the build's own tests (`rules lint`);
  // any other pack's are parsed here, so its syntax errors still surface
  // at load, not at the first text that needs the rule.
  std::unique_ptr<re2::RE2::Set> syntax;
  for (const int r : slot->rules) {
    const Rule& rule = rules_[static_cast<std::size_t>(r)];
    if (IsBuiltinFile(rule.file)) continue;
    if (!syntax) syntax = std::make_unique<re2::RE2::Set>(compiled_->options, re2::RE2::UNANCHORED);
    std::string error;
    if (syntax->Add(rule.pattern, &error) < 0) return PatternProblem(rule, error);
  }
  return Status::Ok();
}

Status RuleSet::CompileChunk(const Slot& slot, Chunk* chunk) const {
  re2::RE2::Options set_options = compiled_->options;
  set_options.set_max_mem(slot.max_mem);
  chunk->set = std::make_unique<re2::RE2::Set>(set_options, re2::RE2::UNANCHORED);
  for (const int r : chunk->rules) {
    const Rule& rule = rules_[static_cast<std::size_t>(r)];
    std::string error;
    // Add parses the pattern: syntax errors are caught here, per rule.
    if (chunk->set->Add(rule.pattern, &error) < 0) {
      chunk->ok = false;
      return PatternProblem(rule, error);
    }
  }
  if (chunk->set->Compile()) return Status::Ok();
  chunk->ok = false;
  // Name the rule that does not fit its own budget, if one does not.
  for (const int r : chunk->rules) {
    const Rule& rule = rules_[static_cast<std::size_t>(r)];
    re2::RE2 alone(rule.pattern, compiled_->options);
    if (!alone.ok()) return PatternProblem(rule, alone.error());
  }
  return Status::Error("rules: the combined patterns exceed RE2's memory budget; "
                       "split or simplify the largest patterns");
}

void RuleSet::PrepareFilter(Slot& slot) const {
  std::call_once(slot.filter_once, [&] {
    // A built-in pattern's requirement was read at build time.
    for (const int r : slot.rules) {
      const std::string& pattern = rules_[static_cast<std::size_t>(r)].pattern;
      if (const std::optional<std::string_view> formula = BuiltinFormula(pattern)) {
        slot.filter.AddFormula(*formula);
      } else {
        slot.filter.Add(pattern);
      }
    }
  });
}

int RuleSet::AddChunk(Slot& slot, const std::vector<int>& indices) const {
  auto chunk = std::make_unique<Chunk>();
  for (const int i : indices) chunk->rules.push_back(slot.rules[static_cast<std::size_t>(i)]);
  // The gate fails open on these rules and says why, once.
  if (Status s = CompileChunk(slot, chunk.get()); !s.ok()) spdlog::error("{}", s.message());
  const int index = static_cast<int>(slot.chunks.size());
  for (const int i : indices) slot.chunk_of[static_cast<std::size_t>(i)] = index;
  slot.chunks.push_back(std::move(chunk));
  return index;
}

const RuleSet::Chunk* RuleSet::ChunkHolding(Slot& slot, int index) const {
  const std::lock_guard<std::mutex> lock(slot.mutex);
  int chunk = slot.chunk_of[static_cast<std::size_t>(index)];
  if (chunk < 0) chunk = AddChunk(slot, {index});
  return slot.chunks[static_cast<std::size_t>(chunk)].get();
}

bool RuleSet::staged_first_match() const { return compiled_->staged_first_match; }

std::size_t RuleSet::CompiledRuleCount(Target target) const {
  std::size_t count = 0;
  for (Slot& slot : compiled_->slots[static_cast<std::size_t>(target)]) {
    if (!slot.lazy) {
      count += slot.rules.size();
      continue;
    }
    const std::lock_guard<std::mutex> lock(slot.mutex);
    count += static_cast<std::size_t>(std::count_if(slot.chunk_of.begin(), slot.chunk_of.end(), [](int c) { return c >= 0; }));
  }
  return count;
}

int RuleSet::FirstMatch(Target target, std::string_view text, const std::function<bool(const Rule&)>& wanted) const {
  if (!compiled_->staged_first_match) {
    for (const int r : Match(target, text).rules) {
      if (wanted(rules_[static_cast<std::size_t>(r)])) return r;
    }
    return -1;
  }
  // Every wanted rule whose words text holds, in pack order (both scripts'
  // rules together: their indices interleave as the packs were loaded).
  struct Candidate {
    int rule;
    Slot* slot;
    int index;
  };
  std::vector<Candidate> order;
  std::vector<int> candidates;
  auto& by_script = compiled_->slots[static_cast<std::size_t>(target)];
  for (std::size_t script : {kAnyScript, kCjkScript}) {
    Slot& slot = by_script[script];
    if (slot.rules.empty() || (script == kCjkScript && !MayHaveCjk(text))) continue;
    PrepareFilter(slot);
    slot.filter.Candidates(text, &candidates);
    for (const int c : candidates) {
      const int r = slot.rules[static_cast<std::size_t>(c)];
      if (wanted(rules_[static_cast<std::size_t>(r)])) order.push_back({r, &slot, c});
    }
  }
  std::sort(order.begin(), order.end(), [](const Candidate& a, const Candidate& b) { return a.rule < b.rule; });
  // One pass per set: a set compiled earlier may hold several candidates.
  std::vector<std::pair<const Chunk*, std::vector<int>>> passes;
  for (const Candidate& c : order) {
    const Chunk* chunk = ChunkHolding(*c.slot, c.index);
    if (!chunk->ok) continue;
    auto pass = std::find_if(passes.begin(), passes.end(), [&](const auto& p) { return p.first == chunk; });
    if (pass == passes.end()) {
      std::vector<int> matched;
      chunk->set->Match(re2::StringPiece(text.data(), text.size()), &matched);
      passes.emplace_back(chunk, std::move(matched));
      pass = std::prev(passes.end());
    }
    for (const int m : pass->second) {
      if (chunk->rules[static_cast<std::size_t>(m)] == c.rule) return c.rule;
    }
  }
  return -1;
}

void RuleSet::ChunksFor(Slot& slot, std::string_view text, std::vector<const Chunk*>* out) const {
  out->clear();
  if (!slot.lazy) {
    for (const auto& chunk : slot.chunks) out->push_back(chunk.get());
    return;
  }
  PrepareFilter(slot);
  std::vector<int> candidates;
  slot.filter.Candidates(text, &candidates);
  if (candidates.empty()) return;
  const std::lock_guard<std::mutex> lock(slot.mutex);
  std::vector<int> missing;
  for (const int c : candidates) {
    if (slot.chunk_of[static_cast<std::size_t>(c)] < 0) missing.push_back(c);
  }
  if (!missing.empty()) AddChunk(slot, missing);
  std::vector<int> needed;
  for (const int c : candidates) needed.push_back(slot.chunk_of[static_cast<std::size_t>(c)]);
  std::sort(needed.begin(), needed.end());
  needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
  for (const int index : needed) out->push_back(slot.chunks[static_cast<std::size_t>(index)].get());
}

Hits RuleSet::Match(Target target, std::string_view text) const {
  std::vector<int> hit_rules;
  auto& by_script = compiled_->slots[static_cast<std::size_t>(target)];
  std::vector<int> matched;
  std::vector<const Chunk*> chunks;
  for (std::size_t script : {kAnyScript, kCjkScript}) {
    Slot& slot = by_script[script];
    if (slot.rules.empty() || (script == kCjkScript && !MayHaveCjk(text))) continue;
    ChunksFor(slot, text, &chunks);
    for (const Chunk* chunk : chunks) {
      if (!chunk->ok) continue;
      matched.clear();
      if (!chunk->set->Match(re2::StringPiece(text.data(), text.size()), &matched)) continue;
      for (const int m : matched) hit_rules.push_back(chunk->rules[static_cast<std::size_t>(m)]);
    }
  }
  return HitsOf(std::move(hit_rules));
}

Hits RuleSet::HitsOf(std::vector<int> rules) const {
  Hits hits;
  hits.rules = std::move(rules);
  std::sort(hits.rules.begin(), hits.rules.end());
  hits.rules.erase(std::unique(hits.rules.begin(), hits.rules.end()), hits.rules.end());
  for (const int r : hits.rules) {
    auto& first = hits.first[static_cast<std::size_t>(rules_[static_cast<std::size_t>(r)].kind)];
    if (first < 0) first = r;
  }
  return hits;
}

bool RuleSet::MatchRule(int i, std::string_view text, std::size_t* begin, std::size_t* end) const {
  Compiled::Lazy& lazy = *compiled_->regexes[static_cast<std::size_t>(i)];
  std::call_once(lazy.once, [&] { lazy.re = std::make_unique<re2::RE2>(rules_[static_cast<std::size_t>(i)].pattern, compiled_->options); });
  const re2::RE2& re = *lazy.re;
  if (!re.ok()) return false;
  re2::StringPiece match;
  if (!re.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), re2::RE2::UNANCHORED, &match, 1)) {
    return false;
  }
  if (begin) *begin = static_cast<std::size_t>(match.data() - text.data());
  if (end) *end = static_cast<std::size_t>(match.data() - text.data()) + match.size();
  return true;
}

int RuleSet::FindRule(std::string_view id) const {
  auto it = compiled_->by_id.find(std::string(id));
  return it == compiled_->by_id.end() ? -1 : it->second;
}

Status LoadRuleSet(const std::string& path, const CompileOptions& options, std::shared_ptr<const RuleSet>* out) {
  std::vector<Pack> packs;
  if (Status s = LoadPacks(path, &packs); !s.ok()) return s;
  return RuleSet::Compile(std::move(packs), options, out);
}

Status LoadRuleSet(const std::string& path, std::shared_ptr<const RuleSet>* out) {
  return LoadRuleSet(path, CompileOptions(), out);
}

std::string PatternError(const std::string& pattern, const CompileOptions& options, int* program_size) {
  const re2::RE2 re(pattern, RuleOptions(options));
  if (program_size != nullptr) *program_size = re.ok() ? re.ProgramSize() : 0;
  return re.ok() ? "" : re.error();
}

}  // namespace causegate::rules
