// How much of a quoted fragment the agent itself supplied (spec:
// judgement.md section 3 rule 4, "a quote mostly made of text the agent
// typed earlier is self-made"). Output can show the agent's own text back
// by any route: echo, printf with a format, a variable, an error message
// that repeats its argument, `ps`, a file it wrote and then read, the
// journal after `logger`. So the evidence index does not ask which command
// printed a line; it asks what share of the fragment is covered by runs of
// at least kRunBytes bytes that occur in text the agent supplied at or
// before the call whose output shows the fragment (supplied_text.h says
// which text that is). Runs rather than whole words or lines, so that
// splitting a message ("Out of mem" + "ory") or formatting it (printf's
// "%s: Killed process %d") does not wash it.
//
// One SuppliedCoverage serves one NeedleSet: every supplied text is
// scanned once for the windows of all of its needles together, with a bit
// filter in front of the sorted window table, so the cost is linear in the
// supplied bytes plus the needles' bytes, and the memory at most 42 bytes a
// byte of the needles (a 1 MiB message quoted whole: 42 MiB).
// Internal to evidence/, used by EvidenceIndex.
// Thread-compatible.
// Tests: tests/unit/evidence/supplied_coverage_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "evidence/needle_set.h"

namespace causegate::evidence {

// A tool call's place in the session: how many turns before the judged one,
// and its position in that turn.
struct CallPlace {
  std::int32_t turns_back = 0;
  std::uint32_t index = 0;
};

// a was made at or before b.
bool AtOrBefore(CallPlace a, CallPlace b);

class SuppliedCoverage {
 public:
  // Shorter runs are too common in ordinary text (a source file the agent
  // wrote shares "process " with any log); longer ones let a split message
  // through. Measured in rules/QUALITY.md ("self-made quotes").
  static constexpr std::size_t kRunBytes = 8;

  // REQUIRES: set outlives this object.
  explicit SuppliedCoverage(const NeedleSet& set);

  // Marks the windows of every needle that occur in folded supplied text
  // made by the call at `place`.
  void Scan(std::string_view supplied, CallPlace place);

  // Share (0..1) of the needle's bytes inside windows supplied at or before
  // `place`. A needle shorter than kRunBytes counts whole or not at all.
  double Share(int needle, CallPlace place) const;

 private:
  struct Window {
    std::uint64_t key;  // its kRunBytes bytes
    std::int32_t needle;
    std::uint32_t offset;
  };
  // Later than every call (turns_back is never negative).
  static constexpr CallPlace kNever{-1, 0};
  static std::uint64_t Key(const char* bytes);
  std::size_t FilterSlot(std::uint64_t key) const;
  void Mark(int needle, std::size_t window, CallPlace place);

  const NeedleSet& set_;
  // Per needle, per window (offset), the earliest call that supplied it;
  // kNever when none did.
  std::vector<std::vector<CallPlace>> earliest_;
  std::vector<Window> windows_;         // sorted by key: 16 bytes a window
  // The distinct keys, each with where its windows start in windows_ and
  // the last Scan that marked them: a run that recurs in one supplied text
  // (a log format, a written file's repeated lines) is marked once, not
  // once a byte.
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> key_begin_;  // one more than keys_
  std::vector<std::uint32_t> key_scan_;
  std::uint32_t scans_ = 0;
  std::vector<std::uint64_t> filter_;   // one bit per hashed key, ~16 bits a window
  int filter_shift_ = 0;                // 64 - log2(filter bits)
  std::vector<int> short_needles_;
};

}  // namespace causegate::evidence
