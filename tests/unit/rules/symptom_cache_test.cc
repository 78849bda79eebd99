// The symptom cache: what it returns is SymptomsInText's for the text,
// cached or not; a repeat hits, another rule set (another serial) or other
// bytes miss; its bytes stay within the bound; off, it keeps nothing. And
// SymptomsInOutput, which reads through it, finds the same with it on.
#include "rules/symptom_cache.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "evidence/limits.h"
#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

std::string Describe(const std::vector<Symptom>& found) {
  std::string out;
  for (const Symptom& s : found) {
    out += s.name + " " + std::to_string(s.rule) + " " + std::to_string(s.offset) + " " +
           SymptomSourceName(s.source) + " " + s.call_id + " " + s.call_label + "\n";
  }
  return out;
}

std::string Log(int variant, std::size_t size) {
  std::string out;
  for (int i = 0; out.size() < size; ++i) {
    out += "step " + std::to_string(i) + " loss " + std::to_string(2.5 - i * 0.01) + " rss " +
           std::to_string(9000 + variant) + " MiB\n";
    if (i == 40 + variant) out += "Memory cgroup out of memory: Killed process 48213 (run-export)\n";
  }
  return out;
}

TEST_CASE("symptom cache: the symptoms are SymptomsInText's, cached or not") {
  const RuleSet& rules = DefaultRules();
  EnableSymptomCache(1 << 20);
  const evidence::ContentCacheStats before = GetSymptomCacheStats();
  for (const std::size_t size : {std::size_t{200}, kMinCachedSymptomTextBytes, std::size_t{30000}}) {
    for (int variant = 0; variant < 3; ++variant) {
      const std::string text = Log(variant, size);
      INFO("size " << size << " variant " << variant);
      const std::string expected = Describe(SymptomsInText(rules, text, SymptomSource::kToolOutput));
      CHECK(Describe(ToolOutputSymptoms(rules, text)) == expected);
      CHECK(Describe(ToolOutputSymptoms(rules, text)) == expected);  // the second from the cache
    }
  }
  const evidence::ContentCacheStats after = GetSymptomCacheStats();
  CHECK(after.misses - before.misses == 6);  // the texts of at least the minimum, once each
  CHECK(after.hits - before.hits == 6);
  // The 30,000-byte log has the oom line: the cache must not hide it.
  CHECK(Describe(ToolOutputSymptoms(rules, Log(0, 30000))).find("oom") != std::string::npos);
  EnableSymptomCache(0);
}

TEST_CASE("symptom cache: another rule set or other bytes miss") {
  const RuleSet& rules = DefaultRules();
  std::shared_ptr<const RuleSet> other;
  REQUIRE(LoadRuleSet("", &other).ok());
  CHECK(other->serial() != rules.serial());
  EnableSymptomCache(1 << 20);
  const std::string text = Log(1, 5000);
  ToolOutputSymptoms(rules, text);
  evidence::ContentCacheStats before = GetSymptomCacheStats();
  ToolOutputSymptoms(*other, text);
  CHECK(GetSymptomCacheStats().misses == before.misses + 1);
  std::string changed = text;
  changed[2500] = changed[2500] == '7' ? '8' : '7';
  before = GetSymptomCacheStats();
  CHECK(Describe(ToolOutputSymptoms(rules, changed)) ==
        Describe(SymptomsInText(rules, changed, SymptomSource::kToolOutput)));
  CHECK(GetSymptomCacheStats().misses == before.misses + 1);
  EnableSymptomCache(0);
}

TEST_CASE("symptom cache: within its bound; off, nothing is kept") {
  const RuleSet& rules = DefaultRules();
  EnableSymptomCache(0);
  EnableSymptomCache(32 * 1024);
  for (int variant = 0; variant < 30; ++variant) {
    ToolOutputSymptoms(rules, Log(variant, 6000));
    CHECK(GetSymptomCacheStats().bytes <= 32 * 1024);
  }
  EnableSymptomCache(0);
  CHECK(GetSymptomCacheStats().bytes == 0);
  const evidence::ContentCacheStats before = GetSymptomCacheStats();
  ToolOutputSymptoms(rules, Log(1, 6000));
  ToolOutputSymptoms(rules, Log(1, 6000));
  CHECK(GetSymptomCacheStats().hits == before.hits);
  CHECK(GetSymptomCacheStats().bytes == 0);
}

TEST_CASE("symptom cache: SymptomsInOutput finds the same with it on, head and tail of a long output") {
  const RuleSet& rules = DefaultRules();
  evidence::ToolCall call;
  call.name = "Bash";
  call.command = "tail -n 5000 train.log";
  call.output = Log(2, 3 * limits::kSymptomScanBytes);  // past the head and tail bound
  call.output += "RuntimeError: CUDA error: an illegal memory access was encountered\n";
  EnableSymptomCache(0);
  const std::string expected = Describe(SymptomsInOutput(rules, call, "t1", "tail"));
  EnableSymptomCache(1 << 20);
  CHECK(Describe(SymptomsInOutput(rules, call, "t1", "tail")) == expected);
  CHECK(Describe(SymptomsInOutput(rules, call, "t1", "tail")) == expected);
  CHECK(Describe(SymptomsInOutput(rules, call, "t2", "other")) != expected);  // ids are set after the cache
  EnableSymptomCache(0);
}

}  // namespace
}  // namespace causegate::rules
