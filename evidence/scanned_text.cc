#include "evidence/scanned_text.h"

#include <algorithm>

namespace causegate::evidence {

std::size_t ScannedText::Find(const std::deque<NeedleSet>& sets, NeedleRef ref) {
  if (text_.empty() || ref.set < 0) return std::string::npos;
  const auto set = static_cast<std::size_t>(ref.set);
  if (scanned_.size() <= set) {
    scanned_.resize(set + 1, 0);
    hits_.resize(set + 1);
  }
  if (scanned_[set] == 0) {
    scanned_[set] = 1;
    hits_[set] = sets[set].FirstHits(text_);
  }
  const std::vector<NeedleSet::Hit>& hits = hits_[set];
  const auto it = std::lower_bound(hits.begin(), hits.end(), ref.needle,
                                   [](const NeedleSet::Hit& hit, int needle) { return hit.needle < needle; });
  return it != hits.end() && it->needle == ref.needle ? it->offset : std::string::npos;
}

}  // namespace causegate::evidence
