// Compiling packs into RE2 objects and one RE2::Set per target. Every rule
// is matched case-insensitively in UTF-8 with RE2's linear-time guarantee,
// so a third-party pack cannot stall the gate; the memory budget per pattern
// bounds what one pattern can cost.
#include "rules/rule_set.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace causegate::rules {

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
  std::array<std::unique_ptr<re2::RE2::Set>, kTargetCount> sets;
  // Set index -> rule index, per target.
  std::array<std::vector<int>, kTargetCount> set_rules;
  std::unordered_map<std::string, int> by_id;
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

std::string Where(const Rule& rule) {
  return rule.file + ":" + std::to_string(rule.line) + ": rule \"" + rule.id + "\"";
}

}  // namespace

Target TargetOf(RuleKind kind) {
  switch (kind) {
    case RuleKind::kDiagnosticPrompt:
    case RuleKind::kSymptom:
      return Target::kPrompt;
    case RuleKind::kEvidenceMarker:
      return Target::kLine;
    case RuleKind::kStep:
      return Target::kCommand;
    default:
      return Target::kSentence;
  }
}

RuleSet::RuleSet() : compiled_(std::make_unique<Compiled>()) {}
RuleSet::~RuleSet() = default;

Status RuleSet::Compile(std::vector<Pack> packs, const CompileOptions& options,
                        std::shared_ptr<const RuleSet>* out) {
  std::shared_ptr<RuleSet> set(new RuleSet());
  Compiled& c = *set->compiled_;
  c.options = RuleOptions(options);
  for (Pack& pack : packs) {
    for (Rule& rule : pack.rules) {
      if (set->rules_.size() >= options.max_rules) {
        return Status::Error(pack.file + ": more than " + std::to_string(options.max_rules) + " rules in all packs");
      }
      const int index = static_cast<int>(set->rules_.size());
      if (!c.by_id.emplace(rule.id, index).second) {
        return Status::Error(Where(rule) + ": duplicate id (also in another pack)");
      }
      c.set_rules[static_cast<std::size_t>(TargetOf(rule.kind))].push_back(index);
      c.regexes.push_back(std::make_unique<Compiled::Lazy>());
      set->rules_.push_back(std::move(rule));
    }
    pack.rules.clear();
  }
  for (std::size_t t = 0; t < c.sets.size(); ++t) {
    const std::vector<int>& members = c.set_rules[t];
    if (members.empty()) continue;
    // The budget grows with the number of rules, so a big pack is not
    // refused for its size alone; one rule still gets max_mem_per_rule.
    re2::RE2::Options set_options = c.options;
    set_options.set_max_mem(std::min<int64_t>(options.max_mem_per_rule * static_cast<int64_t>(members.size()),
                                              int64_t{256} << 20));
    c.sets[t] = std::make_unique<re2::RE2::Set>(set_options, re2::RE2::UNANCHORED);
    for (const int r : members) {
      const Rule& rule = set->rules_[static_cast<std::size_t>(r)];
      std::string error;
      // Add parses the pattern: syntax errors are caught here, per rule.
      if (c.sets[t]->Add(rule.pattern, &error) < 0) return Status::Error(Where(rule) + ": pattern: " + error);
    }
    if (!c.sets[t]->Compile()) {
      // Name the rule that does not fit its own budget, if one does not.
      for (const int r : members) {
        const Rule& rule = set->rules_[static_cast<std::size_t>(r)];
        re2::RE2 alone(rule.pattern, c.options);
        if (!alone.ok()) return Status::Error(Where(rule) + ": pattern: " + alone.error());
      }
      return Status::Error("rules: the combined patterns exceed RE2's memory budget; "
                           "split or simplify the largest patterns");
    }
  }
  set->packs_ = std::move(packs);
  *out = std::move(set);
  return Status::Ok();
}

Hits RuleSet::Match(Target target, std::string_view text) const {
  Hits hits;
  const auto t = static_cast<std::size_t>(target);
  const auto& s = compiled_->sets[t];
  if (!s) return hits;
  std::vector<int> matched;
  if (!s->Match(re2::StringPiece(text.data(), text.size()), &matched)) return hits;
  hits.rules.reserve(matched.size());
  for (const int m : matched) hits.rules.push_back(compiled_->set_rules[t][static_cast<std::size_t>(m)]);
  std::sort(hits.rules.begin(), hits.rules.end());
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

Status LoadRuleSet(const std::string& dir, std::shared_ptr<const RuleSet>* out) {
  std::vector<Pack> packs;
  if (Status s = LoadPacks(dir, &packs); !s.ok()) return s;
  return RuleSet::Compile(std::move(packs), out);
}

}  // namespace causegate::rules
