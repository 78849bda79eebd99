// The rule-pack loader (rules/pack.h) and compiler (rules/rule_set.h): a
// pack someone else wrote must be refused with an error or compiled, never
// crash or stall the gate. The budget is tiny (64 KiB of RE2 memory per
// rule, 64 rules), so patterns past it take the refusal path; a pack that
// compiles is matched against its own examples and a fixed sentence on
// every target. The trusted reading (what the hook uses for the packs
// compiled in) is read too, and must agree with the full one.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "rules/pack.h"
#include "rules/rule_set.h"

namespace rules = causegate::rules;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  causegate::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The trusted reading (simdjson first, the packs compiled in) must build
  // what the full one builds whenever the full one finds nothing wrong.
  const rules::PackReading trusted =
      rules::ReadPack(causegate::fuzz::AsText(data, size), "fuzz.json", rules::PackCheck::kTrusted);
  rules::Pack pack;
  if (!rules::ParsePack(causegate::fuzz::AsText(data, size), "fuzz.json", &pack).ok()) return 0;
  if (trusted.pack.rules.size() != pack.rules.size()) __builtin_trap();
  for (std::size_t i = 0; i < pack.rules.size(); ++i) {
    const rules::Rule& a = trusted.pack.rules[i];
    const rules::Rule& b = pack.rules[i];
    if (a.id != b.id || a.kind != b.kind || a.pattern != b.pattern || a.tag != b.tag || a.line != b.line ||
        a.must_match != b.must_match || a.must_not_match != b.must_not_match) {
      __builtin_trap();
    }
  }
  rules::CompileOptions options;
  options.max_mem_per_rule = 64 << 10;
  options.max_rules = 64;
  std::vector<rules::Pack> packs;
  packs.push_back(pack);
  std::shared_ptr<const rules::RuleSet> set;
  if (!rules::RuleSet::Compile(std::move(packs), options, &set).ok()) return 0;

  for (auto target : {rules::Target::kSentence, rules::Target::kPrompt, rules::Target::kSymptom,
                      rules::Target::kLine, rules::Target::kCommand}) {
    (void)set->Match(target, "The build failed because the cache was stale.");
  }
  for (int i = 0; i < static_cast<int>(set->rules().size()); ++i) {
    const rules::Rule& rule = set->rule(i);
    (void)set->FindRule(rule.id);
    for (const auto& example : rule.must_match) {
      std::size_t begin = 0, end = 0;
      if (set->MatchRule(i, example, &begin, &end) && (begin > end || end > example.size())) __builtin_trap();
      (void)set->Match(rules::TargetOf(rule.kind), example);
    }
  }
  return 0;
}
