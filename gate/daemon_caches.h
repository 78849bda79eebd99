// What a process that judges many stops keeps between them: `causegate
// serve` and the resident daemon call this once at start, so both keep the
// same things. Each cache is keyed by the text it was computed from and
// compared whole, so no verdict can change (evidence/content_cache.h):
// folded tool output (evidence/fold_cache.h, CAUSEGATE_FOLD_CACHE_MB,
// 64), parsed transcript lines (evidence/line_cache.h,
// CAUSEGATE_LINE_CACHE_MB, 64) and the symptoms in tool output
// (rules/symptom_cache.h, CAUSEGATE_SYMPTOM_CACHE_MB, 16); each variable
// is a bound in MiB, 0 turns that cache off. The hook process keeps none.
#pragma once

namespace causegate::gate {

void EnableDaemonCaches();

}  // namespace causegate::gate
