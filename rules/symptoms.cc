// Reading symptoms. A symptom rule set is one RE2::Set pass per text, so a
// prompt costs one pass and a tool output two (its head and its tail, each
// at most limits::kSymptomScanBytes): a 1 GB log costs what 128 KiB costs.
// Ranking: the seed's smoke tests are chosen by hypothesis (batch size 1
// for a suspected OOM), so a mechanism (OOM, NaN, data, NCCL, disk full)
// ranks before an effect (crash, hang, slowdown, GPU idle) wherever it was
// read: in "why did it die?" with an oom-kill in dmesg, the smoke test is
// the OOM's. Then the agent's own suspicion, the user's words, and what the
// tools printed, in that order.
// Tests: tests/unit/rules/protocol_symptoms_test.cc.
#include "rules/symptoms.h"

#include <algorithm>

#include "evidence/limits.h"
#include "rules/symptom_cache.h"

namespace causegate::rules {

const char* SymptomSourceName(SymptomSource source) {
  switch (source) {
    case SymptomSource::kClaim: return "claim";
    case SymptomSource::kPrompt: return "prompt";
    case SymptomSource::kToolOutput: return "tool_output";
  }
  return "unknown";
}

std::vector<Symptom> SymptomsInText(const RuleSet& rules, std::string_view text, SymptomSource source) {
  std::vector<Symptom> out;
  if (text.empty()) return out;
  const Hits hits = rules.Match(Target::kSymptom, text);
  if (!hits.Has(RuleKind::kSymptom)) return out;
  for (const int i : hits.rules) {
    const Rule& rule = rules.rule(i);
    if (rule.kind != RuleKind::kSymptom || rule.tag.empty()) continue;
    std::size_t begin = 0;
    if (!rules.MatchRule(i, text, &begin)) continue;
    auto same = std::find_if(out.begin(), out.end(), [&](const Symptom& s) { return s.name == rule.tag; });
    if (same != out.end()) {
      if (begin < same->offset) {
        same->offset = begin;
        same->rule = i;
      }
      continue;
    }
    Symptom s;
    s.name = rule.tag;
    s.rule = i;
    s.source = source;
    s.offset = begin;
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const Symptom& a, const Symptom& b) { return a.offset < b.offset; });
  return out;
}

std::vector<Symptom> SymptomsInOutput(const RuleSet& rules, const evidence::ToolCall& call, const std::string& call_id,
                                      const std::string& call_label) {
  const std::string_view output = call.output;
  constexpr std::size_t kScan = limits::kSymptomScanBytes;
  std::vector<Symptom> found;
  if (output.size() <= 2 * kScan) {
    found = ToolOutputSymptoms(rules, output);
  } else {
    std::size_t cut = kScan;  // end the head on a character boundary
    while (cut > 0 && (static_cast<unsigned char>(output[cut]) & 0xC0) == 0x80) --cut;
    found = ToolOutputSymptoms(rules, output.substr(0, cut));
    std::string_view tail = output.substr(output.size() - kScan);
    // Start the tail on a character boundary.
    while (!tail.empty() && (static_cast<unsigned char>(tail.front()) & 0xC0) == 0x80) tail.remove_prefix(1);
    for (Symptom& s : ToolOutputSymptoms(rules, tail)) {
      s.offset += output.size() - tail.size();
      if (std::none_of(found.begin(), found.end(), [&](const Symptom& f) { return f.name == s.name; })) {
        found.push_back(std::move(s));
      }
    }
  }
  for (Symptom& s : found) {
    s.call_id = call_id;
    s.call_label = call_label;
  }
  return found;
}

bool IsEffectSymptom(std::string_view name) {
  return name == "crash" || name == "hang" || name == "slowdown" || name == "gpu-idle";
}

void MergeSymptoms(std::vector<Symptom> found, std::vector<Symptom>* all) {
  for (Symptom& s : found) {
    const bool known = std::any_of(all->begin(), all->end(),
                                   [&](const Symptom& a) { return a.name == s.name && a.source == s.source; });
    if (!known) all->push_back(std::move(s));
  }
  std::stable_sort(all->begin(), all->end(), [](const Symptom& a, const Symptom& b) {
    const bool a_effect = IsEffectSymptom(a.name);
    const bool b_effect = IsEffectSymptom(b.name);
    if (a_effect != b_effect) return b_effect;
    return static_cast<int>(a.source) < static_cast<int>(b.source);
  });
}

const Symptom* PrimarySymptom(const std::vector<Symptom>& all) { return all.empty() ? nullptr : &all.front(); }

}  // namespace causegate::rules
