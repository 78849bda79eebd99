// The earlier turns of a file being checked turn by turn: the History each
// turn is judged with, as the live hook would read it at that stop (the
// turns before it, newest first), kept as places in the file rather than
// as text.
//
// Memory: for each earlier turn its place (evidence::TurnPlace) and a gram
// filter of its text, sized by its bytes in the file so that the filters
// of all the turns in reach (below) fit in kFilterBudgetBytes, at most
// kMaxFilterBitsPerByte bits per byte of the turn; the turn itself is
// read again from the file (evidence::TurnRereader) when a look-up needs
// it, as the hook reads earlier turns from the file. Given a spill file,
// the filters too go to the file once they would take more than
// kFilterMemoryBytes in all: each is kept in memory folded (its bits OR-ed
// in groups, GramFilter::Spill), and its words are read from the file only
// for a quote that passes the folded bits. So memory follows the turn
// being judged and the turns a look-up reads, not the file. Without a
// rereader (Gemini chat files, read whole, at most
// limits::kMaxChatFileBytes; turns given by tests) the turns are kept.
//
// Bound: as the hook reads back at most limits::kMaxScanBackBytes from the
// end of the file (evidence/line_reader.h), an earlier turn is handed out
// only while its prompt's line starts fewer than read_back_bytes before
// the end of the turn judged (or at the file's start); once out of reach
// of every later turn its filter is freed. Turns without a place are
// always in reach.
//
// Speed: a turn whose quote is nowhere in its own tool output makes the
// look-up read every earlier turn, which over a whole file would cost the
// square of its length. A view is therefore given the turn's quotes and
// hands out only the earlier turns that can hold one of them, tested
// against a per-turn filter of 8-byte grams (built when the turn is
// pushed, from the same texts the look-up searches, folded the same way).
// The filter has false positives, never false negatives: a turn passed
// over holds none of the quotes in its output, input, command or prompt,
// so the look-up finds, and decides, the same. The caller names how many
// of the newest turns to hand out whole: protocol tracking reads up to
// limits::kMaxStepTurnsBack of them, whatever they hold, when the prompt
// follows up on them (rules::LoadDiagnosisTurns). Only
// Verdict::turns_read_back, a cost figure, can be lower than the hook's.
//
// Thread safety: Push and View on one thread (the one reading the file);
// views may be used on other threads, concurrently, while later turns are
// pushed (batch/work_queue.h: check judges a file's turns on every
// thread): a view hands out the turns before the one it was made for and
// nothing pushed after it. A view must be destroyed before its history.
// Tests: tests/unit/batch/session_history_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "batch/spill_file.h"
#include "evidence/limits.h"
#include "evidence/status.h"
#include "evidence/transcript.h"
#include "evidence/turn.h"

namespace causegate::batch {

// Which 8-byte grams occur in a set of texts, after folding for citation
// matching with white space and ASCII punctuation removed: those starting
// at every kStride-th byte of each text. A needle is then tested at each of
// the kStride offsets it may sit at; at each, every gram of the needle that
// would have been kept is tested, so a quote made up from a real line with
// one number changed is still ruled out by the grams covering that number:
// about (kGram + digits) / kStride of them, each a false positive at the
// filter's fill. Logs repeat their lines with other numbers, so that is
// the case the filter's size and stride are set for (a stride of 4 let
// most turns holding the same line with another number through). Public
// for its test.
class GramFilter {
 public:
  static constexpr std::size_t kGram = 8;
  static constexpr std::size_t kStride = 2;
  // Folds Spill takes: groups of this many bits or fewer (powers of two).
  static constexpr std::uint32_t kMaxFold = 64;

  // bits: the filter's size, from 4096 to 2^32. About 6 bits per kept gram
  // (a kept gram every kStride projected bytes) make a gram that is not in
  // the text a false positive about 1 time in 6.
  explicit GramFilter(std::uint64_t bits = 0);
  // Adds raw text (folded here). REQUIRES: not spilled.
  void Add(std::string_view raw);
  // needle: a projection from Project(). False only when the needle cannot
  // occur in any text added; true for needles too short to tell. Spilled,
  // the same answer, with the file read only for a needle every group of
  // whose grams holds a bit; true when that read fails (the look-up then
  // reads the turn and decides: only Verdict::turns_read_back can change).
  // Thread-safe (spilled: a buffer per thread).
  bool MayContain(std::string_view needle) const;
  // Memory held (for a spilled filter, its folded bits).
  std::size_t bytes() const { return bits_.size() * sizeof(std::uint64_t); }

  // Appends the filter's words to file and keeps in memory, for each
  // group of fold bits (fold rounded up to a power of two, 2 to
  // kMaxFold), whether any of them is set: 1/fold of the memory. The words
  // are released (SpillFile::Release) with the filter. Errors: the
  // write's; the filter is then as it was. REQUIRES: not spilled.
  Status Spill(std::shared_ptr<SpillFile> file, std::uint32_t fold);
  bool spilled() const { return spilled_ != nullptr; }

  // A fragment as quoted, folded (evidence::FoldForMatch) and reduced the
  // way Add reduces text.
  static std::string Project(std::string_view fragment);
  // True when MayContain can rule the needle out: it has a gram at every
  // offset.
  static bool CanTell(std::string_view needle) { return needle.size() >= kGram + kStride - 1; }

 private:
  // Where the words of a spilled filter are; released when dropped.
  struct SpilledWords {
    std::shared_ptr<SpillFile> file;
    std::int64_t offset = 0;
    std::size_t bytes = 0;
    ~SpilledWords();
  };

  static std::uint64_t Load(const unsigned char* p);  // kGram bytes as a gram
  // The gram's bit, spread over any number of bits (not only powers of
  // two, so the filter is as large as the text asks): the high 32 bits of
  // the hash scaled to the size, which is at most 2^32.
  std::uint64_t Bit(std::uint64_t gram) const { return (((gram * 0x9E3779B97F4A7C15ull) >> 32) * nbits_) >> 32; }
  bool Set(std::uint64_t bit) const { return ((bits_[bit >> 6] >> (bit & 63)) & 1) != 0; }

  // Not spilled: the filter's words. Spilled: one bit per group of
  // 2^fold_shift_ of them.
  std::vector<std::uint64_t> bits_;
  std::uint64_t nbits_ = 0;
  unsigned fold_shift_ = 0;
  std::unique_ptr<const SpilledWords> spilled_;
};

// The History one turn is judged with (SessionHistory::View), and whether
// reading back its turns failed.
class HistoryView : public evidence::History {
 public:
  // Ok, or the failure that stopped this view reading back (the file
  // changed under the check).
  virtual Status status() const = 0;
};

class SessionHistory {
 public:
  // The filters of the turns one look-up can reach, together.
  static constexpr std::size_t kFilterBudgetBytes = 16u << 20;
  // What of them is kept in memory when there is a spill file: filters
  // that would take more in all are spilled, folded to fit.
  static constexpr std::size_t kFilterMemoryBytes = 4u << 20;
  // Filter bits per byte of a turn in a file small enough not to need the
  // whole budget; turns without a place (kept in memory) get this too.
  static constexpr double kMaxFilterBitsPerByte = 4.0;

  // rereader: reads a pushed turn again from its place; null keeps every
  // turn in memory. read_back_bytes: the hook's reach (see above). spill:
  // where the filters of turns read again go past filter_memory_bytes in
  // all (see above); null keeps them in memory. A filter that cannot be
  // written there stays in memory.
  explicit SessionHistory(std::shared_ptr<const evidence::TurnRereader> rereader = nullptr,
                          std::int64_t read_back_bytes = static_cast<std::int64_t>(limits::kMaxScanBackBytes),
                          std::shared_ptr<SpillFile> spill = nullptr,
                          std::size_t filter_memory_bytes = kFilterMemoryBytes);
  ~SessionHistory();
  SessionHistory(const SessionHistory&) = delete;
  SessionHistory& operator=(const SessionHistory&) = delete;

  // Keeps the turn just read as the newest earlier turn; place is where
  // the file holds it (all 0 when it has no place).
  void Push(const evidence::Turn& turn, const evidence::TurnPlace& place = {});

  // The History for judging the next turn, which sits at `place`, whose
  // long-enough quoted fragments are `fragments` (raw, as quoted); its
  // newest `whole` turns are handed out whatever they hold. Valid until
  // destroyed, whatever is pushed meanwhile.
  std::unique_ptr<HistoryView> View(const std::vector<std::string>& fragments, int whole = 0,
                                    const evidence::TurnPlace& place = {});

  // The first failure to read a turn again (the file changed under the
  // check), whichever view met it; the views that met it stopped reading
  // back, and say so in their own status().
  Status status() const;

  // Memory held: filters (folded, once spilled), places, and the turns
  // kept whole.
  std::size_t bytes() const;
  int kept() const;     // turns still in reach
  int dropped() const;  // turns out of reach, freed
  int rereads() const;  // turns read again from the file

 private:
  struct Kept;
  class ViewImpl;

  void Forget();  // frees what no view, present or future, can reach
  void Failed(const Status& status);

  const std::shared_ptr<const evidence::TurnRereader> rereader_;
  const std::int64_t read_back_bytes_;
  const double filter_bits_per_byte_;  // of a turn's bytes in the file
  const std::shared_ptr<SpillFile> spill_;
  const std::uint32_t filter_fold_;    // 1: filters stay in memory
  mutable std::shared_mutex mutex_;  // guards kept_ and first_number_
  std::deque<std::unique_ptr<const Kept>> kept_;  // oldest first
  int first_number_ = 0;             // number of kept_.front()
  int next_number_ = 0;              // index of the next turn in the file
  std::size_t bytes_ = 0;
  std::int64_t reach_from_ = 0;      // the earliest place.end a future view has
  mutable std::mutex views_mutex_;   // guards view_floors_ and status_
  std::multiset<int> view_floors_;   // the oldest turn each live view reaches
  Status status_;
  std::atomic<int> rereads_{0};
};

}  // namespace causegate::batch
