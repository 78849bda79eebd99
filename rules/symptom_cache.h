// Symptoms read from tool output, kept between a daemon's stops (`causegate
// serve`, the resident daemon): every stop of a session scans the same
// outputs for symptoms again (rules/symptoms.h), and that scan was the
// largest part of tracking the protocol's steps in a daemon's verdict
// (bench/RESULTS.md). Keyed by the scanned text itself and the rule set's
// serial (evidence/content_cache.h), compared whole on a hit: an entry is
// exactly what that rule set finds in that text, and a reloaded or
// per-turn rule set has a serial of its own. Off until a process turns it
// on; the hook process never does. Thread-safe.
// Tests: tests/unit/rules/symptom_cache_test.cc.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "evidence/content_cache.h"
#include "rules/rule_set.h"
#include "rules/symptoms.h"

namespace causegate::rules {

// Texts shorter than this are scanned each time.
inline constexpr std::size_t kMinCachedSymptomTextBytes = 1024;

// Turns the cache on with room for max_bytes (0: off, the default), or
// changes its bound.
void EnableSymptomCache(std::size_t max_bytes);

// The bound a daemon enables: CAUSEGATE_SYMPTOM_CACHE_MB (0, off, to
// 4096), else 16 MiB.
std::size_t SymptomCacheBytesFromEnvironment();

// SymptomsInText(rules, text, SymptomSource::kToolOutput), from the cache
// when it is on and text is long enough.
std::vector<Symptom> ToolOutputSymptoms(const RuleSet& rules, std::string_view text);

evidence::ContentCacheStats GetSymptomCacheStats();

}  // namespace causegate::rules
