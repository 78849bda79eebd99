// The earlier turns of a file being checked turn by turn: the History each
// turn is judged with, as the live hook would read it at that stop (the
// turns before it, newest first), without reading the file again.
//
// Memory: each turn's prompt and tool calls are kept once the turn has been
// judged, up to max_bytes in all (limits::kMaxEvidenceBytes by default, the
// bound the citation look-up itself has); past it the oldest turns are
// dropped and later citations of them are not found. Sessions of less tool
// output than that are judged exactly as the hook judges them.
//
// Speed: a turn whose quote is nowhere in its own tool output makes the
// look-up read every earlier turn, which over a whole file would cost the
// square of its length. A view is therefore given the turn's quotes and
// hands out only the earlier turns that can hold one of them, tested
// against a per-turn filter of 8-byte grams (built once, on first need,
// from the same texts the look-up searches, folded the same way). The
// filter has false positives, never false negatives: a turn passed over
// holds none of the quotes in its output, input, command or prompt, so the
// look-up finds, and decides, the same. The caller names how many of the
// newest turns to hand out whole: protocol tracking reads up to
// limits::kMaxStepTurnsBack of them, whatever they hold, when the prompt
// follows up on them (rules::LoadDiagnosisTurns). Only
// Verdict::turns_read_back, a cost figure, can be lower than the hook's.
// Tests: tests/unit/batch/session_history_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/limits.h"
#include "evidence/turn.h"

namespace causegate::batch {

// Which 8-byte grams occur in a set of texts, after folding for citation
// matching with white space and ASCII punctuation removed: those starting
// at every kStride-th byte of each text. A needle is then tested at each of
// the kStride offsets it may sit at; at each, every gram of the needle that
// would have been kept is tested, so a quote made up from a real line with
// one number changed is still ruled out by the grams covering that number
// (kStride < kGram), at a quarter of the hashing. Public for its test.
class GramFilter {
 public:
  static constexpr std::size_t kGram = 8;
  static constexpr std::size_t kStride = 4;

  explicit GramFilter(std::size_t expected_bytes = 0);
  // Adds raw text (folded here).
  void Add(std::string_view raw);
  // needle: a projection from Project(). False only when the needle cannot
  // occur in any text added; true for needles too short to tell.
  bool MayContain(std::string_view needle) const;
  std::size_t bytes() const { return bits_.size() * sizeof(std::uint64_t); }

  // A fragment as quoted, folded (evidence::FoldForMatch) and reduced the
  // way Add reduces text.
  static std::string Project(std::string_view fragment);
  // True when MayContain can rule the needle out: it has a gram at every
  // offset.
  static bool CanTell(std::string_view needle) { return needle.size() >= kGram + kStride - 1; }

 private:
  static std::uint64_t Load(const unsigned char* p);  // kGram bytes as a gram
  std::uint64_t Bit(std::uint64_t gram) const { return (gram * 0x9E3779B97F4A7C15ull) >> shift_; }
  std::vector<std::uint64_t> bits_;
  int shift_ = 0;
};

class SessionHistory {
 public:
  explicit SessionHistory(std::size_t max_bytes = limits::kMaxEvidenceBytes);
  ~SessionHistory();
  SessionHistory(const SessionHistory&) = delete;
  SessionHistory& operator=(const SessionHistory&) = delete;

  // Keeps the turn just judged as the newest earlier turn.
  void Push(const evidence::Turn& turn);

  // The History for judging the next turn, whose long-enough quoted
  // fragments are `fragments` (raw, as quoted); its newest `whole` turns
  // are handed out whatever they hold. Valid until the next Push.
  std::unique_ptr<evidence::History> View(const std::vector<std::string>& fragments, int whole = 0);

  std::size_t bytes() const { return bytes_; }
  int kept() const { return static_cast<int>(kept_.size()); }
  int dropped() const { return dropped_; }

 private:
  struct Kept;
  class ViewImpl;
  const GramFilter& FilterOf(Kept* kept);

  std::size_t max_bytes_;
  std::deque<std::unique_ptr<Kept>> kept_;  // oldest first
  std::size_t bytes_ = 0;
  int next_number_ = 0;  // index of the next turn in the file
  int dropped_ = 0;
};

}  // namespace causegate::batch
