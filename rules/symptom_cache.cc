#include "rules/symptom_cache.h"

namespace causegate::rules {
namespace {

std::size_t SymptomsBytes(const std::vector<Symptom>& found) {
  std::size_t bytes = sizeof(found);
  for (const Symptom& s : found) bytes += sizeof(Symptom) + s.name.size() + s.call_id.size() + s.call_label.size();
  return bytes;
}

evidence::ContentCache<std::vector<Symptom>>& Cache() {
  static auto* cache = new evidence::ContentCache<std::vector<Symptom>>(SymptomsBytes);  // daemons' threads
  return *cache;
}

}  // namespace

void EnableSymptomCache(std::size_t max_bytes) { Cache().SetBound(max_bytes); }

std::size_t SymptomCacheBytesFromEnvironment() {
  return evidence::CacheBytesFromEnvironment("CAUSEGATE_SYMPTOM_CACHE_MB", 16);
}

std::vector<Symptom> ToolOutputSymptoms(const RuleSet& rules, std::string_view text) {
  if (text.size() < kMinCachedSymptomTextBytes) return SymptomsInText(rules, text, SymptomSource::kToolOutput);
  return Cache().GetOrCompute(rules.serial(), text,
                              [&] { return SymptomsInText(rules, text, SymptomSource::kToolOutput); });
}

evidence::ContentCacheStats GetSymptomCacheStats() { return Cache().stats(); }

}  // namespace causegate::rules
