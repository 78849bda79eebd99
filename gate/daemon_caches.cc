#include "gate/daemon_caches.h"

#include "evidence/fold_cache.h"
#include "evidence/line_cache.h"
#include "rules/symptom_cache.h"

namespace causegate::gate {

void EnableDaemonCaches() {
  evidence::EnableFoldCache(evidence::FoldCacheBytesFromEnvironment());
  evidence::EnableLineCache(evidence::LineCacheBytesFromEnvironment());
  rules::EnableSymptomCache(rules::SymptomCacheBytesFromEnvironment());
}

}  // namespace causegate::gate
