// Windows are kRunBytes bytes read as one 64-bit key, so the table needs no
// hash of its own beyond the filter's, and a hit is exact: no collision can
// make real output look self-made.
#include "evidence/supplied_coverage.h"

#include <algorithm>
#include <cstring>

namespace causegate::evidence {

static_assert(SuppliedCoverage::kRunBytes == sizeof(std::uint64_t), "a window is one 64-bit key");

bool AtOrBefore(CallPlace a, CallPlace b) {
  return a.turns_back > b.turns_back || (a.turns_back == b.turns_back && a.index <= b.index);
}

std::uint64_t SuppliedCoverage::Key(const char* bytes) {
  std::uint64_t key;
  std::memcpy(&key, bytes, sizeof key);
  return key;
}

std::size_t SuppliedCoverage::FilterSlot(std::uint64_t key) const {
  return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> filter_shift_);
}

SuppliedCoverage::SuppliedCoverage(const NeedleSet& set) : set_(set) {
  earliest_.resize(static_cast<std::size_t>(set.size()));
  for (int n = 0; n < set.size(); ++n) {
    const std::string& needle = set.needle(n);
    if (needle.size() < kRunBytes) {
      earliest_[static_cast<std::size_t>(n)].assign(1, kNever);
      if (!needle.empty()) short_needles_.push_back(n);
      continue;
    }
    const std::size_t windows = needle.size() - kRunBytes + 1;
    earliest_[static_cast<std::size_t>(n)].assign(windows, kNever);
    for (std::size_t w = 0; w < windows; ++w) {
      windows_.push_back(Window{Key(needle.data() + w), n, static_cast<std::uint32_t>(w)});
    }
  }
  std::sort(windows_.begin(), windows_.end(), [](const Window& a, const Window& b) { return a.key < b.key; });
  for (std::size_t i = 0; i < windows_.size(); ++i) {
    if (i > 0 && windows_[i].key == windows_[i - 1].key) continue;
    keys_.push_back(windows_[i].key);
    key_begin_.push_back(static_cast<std::uint32_t>(i));
  }
  key_begin_.push_back(static_cast<std::uint32_t>(windows_.size()));
  key_scan_.assign(keys_.size(), 0);
  // About 16 filter bits a window (2^16 at least): few bytes of supplied
  // text that match no window get past the filter to the table.
  int bits = 16;
  while (bits < 30 && (std::size_t{1} << bits) < windows_.size() * 16) ++bits;
  filter_shift_ = 64 - bits;
  filter_.assign((std::size_t{1} << bits) / 64, 0);
  for (const Window& w : windows_) {
    const std::size_t slot = FilterSlot(w.key);
    filter_[slot / 64] |= std::uint64_t{1} << (slot % 64);
  }
}

void SuppliedCoverage::Mark(int needle, std::size_t window, CallPlace place) {
  CallPlace& earliest = earliest_[static_cast<std::size_t>(needle)][window];
  if (AtOrBefore(place, earliest)) earliest = place;
}

void SuppliedCoverage::Scan(std::string_view supplied, CallPlace place) {
  for (const int n : short_needles_) {
    if (supplied.find(set_.needle(n)) != std::string_view::npos) Mark(n, 0, place);
  }
  if (supplied.size() < kRunBytes || keys_.empty()) return;
  const std::uint32_t scan = ++scans_;
  const std::size_t last = supplied.size() - kRunBytes;
  for (std::size_t i = 0; i <= last; ++i) {
    const std::uint64_t key = Key(supplied.data() + i);
    const std::size_t slot = FilterSlot(key);
    if ((filter_[slot / 64] >> (slot % 64) & 1u) == 0) continue;
    const auto it = std::lower_bound(keys_.begin(), keys_.end(), key);
    if (it == keys_.end() || *it != key) continue;
    const std::size_t k = static_cast<std::size_t>(it - keys_.begin());
    if (key_scan_[k] == scan) continue;
    key_scan_[k] = scan;
    for (std::uint32_t w = key_begin_[k]; w < key_begin_[k + 1]; ++w) {
      Mark(windows_[w].needle, windows_[w].offset, place);
    }
  }
}

double SuppliedCoverage::Share(int needle, CallPlace place) const {
  const std::string& text = set_.needle(needle);
  if (text.empty()) return 0.0;
  const std::vector<CallPlace>& earliest = earliest_[static_cast<std::size_t>(needle)];
  if (text.size() < kRunBytes) return AtOrBefore(earliest[0], place) ? 1.0 : 0.0;
  // Union of the windows that count, walked left to right.
  std::size_t covered = 0;
  std::size_t reach = 0;  // end of the covered stretch so far
  for (std::size_t w = 0; w < earliest.size(); ++w) {
    if (!AtOrBefore(earliest[w], place)) continue;
    const std::size_t end = w + kRunBytes;
    covered += end - std::max(w, reach);
    reach = end;
  }
  return static_cast<double>(covered) / static_cast<double>(text.size());
}

}  // namespace causegate::evidence
