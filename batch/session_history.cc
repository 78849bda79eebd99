// The per-turn gram filter and the filtered view. A gram is 8 consecutive
// bytes of a turn's text projected to what can matter for a match: the
// text folded for citation matching (evidence/text_fold.h), then ASCII
// white space and punctuation dropped, ASCII letters and digits and every
// non-ASCII byte kept. Projection maps a substring to a substring, so a
// quote (folded, projected the same way) that occurs in a text has all its
// grams in that text's filter. Folding is local: ASCII bytes fold to
// themselves in lower case and each non-ASCII run folds on its own, so
// only non-ASCII runs go through FoldForMatch and ASCII output, nearly all
// of it, is hashed in one pass with no copy.
//
// A spilled filter answers exactly as it did whole: a group of its bits
// kept in memory is set when any bit in it is, so a needle whose grams
// all find their groups set may be there, and only then are the words
// read back; one whose groups are not all set has a gram whose bit is
// not. Every view thus hands out the turns it handed out with the filters
// in memory, and Verdict::turns_read_back is unchanged.
// Tests: tests/unit/batch/session_history_test.cc.
#include "batch/session_history.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "evidence/claude_line.h"
#include "evidence/text_fold.h"

namespace causegate::batch {
namespace {

bool IsAsciiAlnum(unsigned char c) {
  const unsigned char lower = c | 0x20;
  return (lower >= 'a' && lower <= 'z') || (c >= '0' && c <= '9');
}

unsigned char Lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c | 0x20) : c; }

// Feeds the projection of already folded text to push.
template <typename Push>
void ProjectFolded(std::string_view folded, Push push) {
  for (const char ch : folded) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80) {
      push(c);
    } else if (IsAsciiAlnum(c)) {
      push(Lower(c));
    }
  }
}

std::size_t CallBytes(const evidence::ToolCall& call) {
  return sizeof(call) + call.id.size() + call.name.size() + call.input.size() + call.command.size() +
         call.output.size();
}

}  // namespace

GramFilter::GramFilter(std::uint64_t bits) {
  bits = std::clamp<std::uint64_t>(bits, 4096, std::uint64_t{1} << 32);
  bits_.assign((bits + 63) / 64, 0);
  nbits_ = bits;
}

// byte -> projected byte (0: dropped), for ASCII.
constexpr std::array<unsigned char, 128> kProjectAscii = [] {
  std::array<unsigned char, 128> t{};
  for (int c = 0; c < 128; ++c) {
    if (c >= 'A' && c <= 'Z') t[static_cast<std::size_t>(c)] = static_cast<unsigned char>(c | 0x20);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) t[static_cast<std::size_t>(c)] = static_cast<unsigned char>(c);
  }
  return t;
}();

std::uint64_t GramFilter::Load(const unsigned char* p) {
  std::uint64_t gram = 0;
  std::memcpy(&gram, p, kGram);
  return gram;
}

void GramFilter::Add(std::string_view raw) {
  // The projection is written to a buffer and hashed a chunk at a time:
  // every 8-byte window of it, the last 7 bytes carried into the next chunk.
  constexpr std::size_t kChunk = 4096;
  std::array<unsigned char, kChunk> buf;
  std::size_t n = 0;
  std::size_t base = 0;  // position of buf[0] in the whole projection
  auto flush = [&] {
    if (n < kGram) return;
    // Only grams that start at a multiple of kStride in the projection.
    for (std::size_t i = (kStride - base % kStride) % kStride; i + kGram <= n; i += kStride) {
      const std::uint64_t bit = Bit(Load(buf.data() + i));
      bits_[bit >> 6] |= std::uint64_t{1} << (bit & 63);
    }
    std::memmove(buf.data(), buf.data() + n - (kGram - 1), kGram - 1);
    base += n - (kGram - 1);
    n = kGram - 1;
  };
  const auto* p = reinterpret_cast<const unsigned char*>(raw.data());
  const auto* end = p + raw.size();
  while (p < end) {
    if (*p < 0x80) {
      // ASCII, as far as the buffer has room, with no check per byte.
      const auto* stop = p + std::min<std::size_t>(buf.size() - n, static_cast<std::size_t>(end - p));
      for (; p < stop && *p < 0x80; ++p) {
        const unsigned char b = kProjectAscii[*p];
        buf[n] = b;
        n += b != 0;
      }
      if (buf.size() - n < kGram) flush();
      continue;
    }
    const auto* run_end = p;
    while (run_end < end && *run_end >= 0x80) ++run_end;
    const std::string folded = evidence::FoldForMatch(
        std::string_view(reinterpret_cast<const char*>(p), static_cast<std::size_t>(run_end - p)));
    ProjectFolded(folded, [&](unsigned char b) {
      buf[n++] = b;
      if (n == buf.size()) flush();
    });
    p = run_end;
  }
  flush();
}

bool GramFilter::MayContain(std::string_view needle) const {
  // Wherever the needle sits in a text, the grams the text kept are those
  // at one of kStride offsets in the needle: it may be there if, for some
  // offset, every such gram is. Spilled, the groups in memory answer for
  // the bits they hold, and the words read from the file for the offsets
  // whose groups all hold one: read whole, once, as a needle that gets
  // that far mostly shares much of its text with the turn's.
  const auto* p = reinterpret_cast<const unsigned char*>(needle.data());
  const std::uint64_t* words = spilled_ == nullptr ? bits_.data() : nullptr;
  thread_local std::vector<std::uint64_t> read;
  for (std::size_t offset = 0; offset < kStride; ++offset) {
    bool all = true;
    for (std::size_t i = offset; i + kGram <= needle.size(); i += kStride) {
      if (!Set(Bit(Load(p + i)) >> fold_shift_)) {
        all = false;
        break;
      }
    }
    if (!all) continue;
    if (words == nullptr) {
      read.resize(spilled_->bytes / sizeof(std::uint64_t));
      if (!spilled_->file->ReadInto(spilled_->offset, spilled_->bytes, read.data()).ok()) return true;
      words = read.data();
    }
    for (std::size_t i = offset; i + kGram <= needle.size(); i += kStride) {
      const std::uint64_t bit = Bit(Load(p + i));
      if (((words[bit >> 6] >> (bit & 63)) & 1) == 0) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

namespace {

// Each pair of bits of words OR-ed into one bit, in order: bit k of the
// result is bit 2k or 2k + 1 of words.
std::vector<std::uint64_t> FoldPairs(const std::vector<std::uint64_t>& words) {
  std::vector<std::uint64_t> out((words.size() + 1) / 2, 0);
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::uint64_t x = words[i];
    x = (x | (x >> 1)) & 0x5555555555555555ull;  // each pair's OR in its low bit,
    x = (x | (x >> 1)) & 0x3333333333333333ull;  // then the low bits packed together
    x = (x | (x >> 2)) & 0x0F0F0F0F0F0F0F0Full;
    x = (x | (x >> 4)) & 0x00FF00FF00FF00FFull;
    x = (x | (x >> 8)) & 0x0000FFFF0000FFFFull;
    x = (x | (x >> 16)) & 0x00000000FFFFFFFFull;
    out[i / 2] |= x << (32 * (i % 2));
  }
  return out;
}

}  // namespace

Status GramFilter::Spill(std::shared_ptr<SpillFile> file, std::uint32_t fold) {
  const std::string_view words(reinterpret_cast<const char*>(bits_.data()), bits_.size() * sizeof(std::uint64_t));
  std::int64_t offset = 0;
  if (Status s = file->Append(words, &offset); !s.ok()) return s;
  std::vector<std::uint64_t> folded = FoldPairs(bits_);
  unsigned shift = 1;
  for (; (std::uint32_t{1} << shift) < fold && (std::uint32_t{1} << shift) < kMaxFold; ++shift) {
    folded = FoldPairs(folded);
  }
  spilled_.reset(new SpilledWords{std::move(file), offset, words.size()});  // no temporary to release
  bits_ = std::move(folded);
  fold_shift_ = shift;
  return Status::Ok();
}

GramFilter::SpilledWords::~SpilledWords() {
  if (file != nullptr) file->Release(offset, bytes);
}

std::string GramFilter::Project(std::string_view fragment) {
  std::string out;
  ProjectFolded(evidence::FoldForMatch(fragment), [&out](unsigned char c) { out.push_back(static_cast<char>(c)); });
  return out;
}

// An earlier turn: where it is, its filter, and (without a rereader) the
// turn itself. Immutable once pushed.
struct SessionHistory::Kept {
  int number = 0;
  evidence::TurnPlace place;
  std::size_t text_bytes = 0;  // TextBytes of the turn, to tell it again when read again
  GramFilter filter;
  std::shared_ptr<const evidence::PastTurn> turn;  // null when read again from the file

  std::size_t bytes() const { return sizeof(Kept) + filter.bytes() + (turn != nullptr ? text_bytes : 0); }
};

namespace {

std::size_t TextBytes(const std::string& prompt, const std::vector<evidence::ToolCall>& calls) {
  std::size_t bytes = prompt.size();
  for (const evidence::ToolCall& call : calls) bytes += CallBytes(call);
  return bytes;
}

}  // namespace

class SessionHistory::ViewImpl final : public HistoryView {
 public:
  ViewImpl(SessionHistory* owner, std::vector<std::string> needles, bool filtered, int whole, int floor, int end)
      : owner_(owner),
        needles_(std::move(needles)),
        filtered_(filtered),
        whole_(whole),
        floor_(floor),
        next_(end),
        end_(end) {}

  ~ViewImpl() override {
    const std::lock_guard<std::mutex> lock(owner_->views_mutex_);
    owner_->view_floors_.erase(owner_->view_floors_.find(floor_));
  }

  bool LoadOlder(evidence::PastTurn* out) override {
    evidence::TurnPlace place;
    std::size_t text_bytes = 0;
    std::shared_ptr<const evidence::PastTurn> kept_turn;
    {
      const std::shared_lock<std::shared_mutex> lock(owner_->mutex_);
      const Kept* found = nullptr;
      while (next_ > floor_ && found == nullptr) {
        const Kept& kept = *owner_->kept_[static_cast<std::size_t>(--next_ - owner_->first_number_)];
        const bool whole = end_ - kept.number <= whole_;
        if (!filtered_ || whole || Relevant(kept)) found = &kept;
      }
      if (found == nullptr) return false;
      place = found->place;
      text_bytes = found->text_bytes;
      kept_turn = found->turn;
    }
    if (kept_turn != nullptr) {
      *out = *kept_turn;
    } else {
      evidence::Turn turn;
      Status s = owner_->rereader_->Read(place, &turn);
      if (s.ok() && TextBytes(turn.prompt, turn.tool_calls) != text_bytes) {
        s = Status::Error(owner_->rereader_->path() + ": line " + std::to_string(place.line) +
                          ": the turn read there differs from the one read before (was the file rewritten?)");
      }
      if (!s.ok()) {
        owner_->Failed(s);
        status_ = s;
        next_ = floor_;
        return false;
      }
      ++owner_->rereads_;
      out->prompt = std::move(turn.prompt);
      out->tool_calls = std::move(turn.tool_calls);
    }
    const int back = end_ - next_;
    out->turns_back = back;
    for (evidence::ToolCall& call : out->tool_calls) call.turns_back = back;
    return true;
  }

  Status status() const override { return status_; }

 private:
  bool Relevant(const Kept& kept) const {
    for (const std::string& needle : needles_) {
      if (kept.filter.MayContain(needle)) return true;
    }
    return false;
  }

  SessionHistory* owner_;
  std::vector<std::string> needles_;
  bool filtered_;
  int whole_;
  int floor_;  // the oldest turn in reach
  int next_;   // the turn after the next one to consider
  int end_;    // the turn judged
  Status status_;
};

namespace {

// The most file bytes one look-up can reach (the file, or the hook's reach).
double Reach(const evidence::TurnRereader& rereader, std::int64_t read_back_bytes) {
  return static_cast<double>(std::max<std::int64_t>(1, std::min(rereader.file_bytes(), read_back_bytes)));
}

// Filter bits per byte of a turn in the file: the budget spread over the
// reach.
double FilterBitsPerByte(const evidence::TurnRereader* rereader, std::int64_t read_back_bytes) {
  if (rereader == nullptr) return SessionHistory::kMaxFilterBitsPerByte;
  return std::min(SessionHistory::kMaxFilterBitsPerByte,
                  8.0 * SessionHistory::kFilterBudgetBytes / Reach(*rereader, read_back_bytes));
}

// How many bits of a filter each bit kept in memory stands for: the least
// power of two that brings the filters in reach within memory_bytes (1:
// they fit as they are, or have nowhere else to go).
std::uint32_t FilterFold(const evidence::TurnRereader* rereader, std::int64_t read_back_bytes, double bits_per_byte,
                         const SpillFile* spill, std::size_t memory_bytes) {
  if (rereader == nullptr || spill == nullptr) return 1;
  const double filter_bytes = bits_per_byte * Reach(*rereader, read_back_bytes) / 8;
  std::uint32_t fold = 1;
  while (fold < GramFilter::kMaxFold && filter_bytes > static_cast<double>(memory_bytes) * fold) fold *= 2;
  return fold;
}

}  // namespace

SessionHistory::SessionHistory(std::shared_ptr<const evidence::TurnRereader> rereader, std::int64_t read_back_bytes,
                               std::shared_ptr<SpillFile> spill, std::size_t filter_memory_bytes)
    : rereader_(std::move(rereader)),
      read_back_bytes_(read_back_bytes),
      filter_bits_per_byte_(FilterBitsPerByte(rereader_.get(), read_back_bytes)),
      spill_(std::move(spill)),
      filter_fold_(
          FilterFold(rereader_.get(), read_back_bytes, filter_bits_per_byte_, spill_.get(), filter_memory_bytes)) {}
SessionHistory::~SessionHistory() = default;

void SessionHistory::Push(const evidence::Turn& turn, const evidence::TurnPlace& place) {
  auto kept = std::make_unique<Kept>();
  kept->number = next_number_++;
  kept->place = place;
  kept->text_bytes = TextBytes(turn.prompt, turn.tool_calls);
  // Every text the citation look-up searches in an earlier turn
  // (evidence_index.cc): the prompt, and per call its output, the string
  // values of its input and its command. What the agent supplied is part
  // of those, so a turn that supplied a whole fragment is read too.
  const bool in_memory = rereader_ == nullptr || place.end == 0;
  const double sized_by = static_cast<double>(in_memory ? kept->text_bytes : place.end - place.begin);
  kept->filter =
      GramFilter(static_cast<std::uint64_t>(sized_by * (in_memory ? kMaxFilterBitsPerByte : filter_bits_per_byte_)));
  kept->filter.Add(turn.prompt);
  for (const evidence::ToolCall& call : turn.tool_calls) {
    kept->filter.Add(call.output);
    kept->filter.Add(call.command);
    kept->filter.Add(evidence::ExtractToolInputText(call.name, call.input).all);
  }
  // Not written: it stays in memory, whole.
  if (!in_memory && filter_fold_ > 1) (void)kept->filter.Spill(spill_, filter_fold_);
  if (in_memory) {
    auto past = std::make_shared<evidence::PastTurn>();
    past->prompt = turn.prompt;
    past->tool_calls = turn.tool_calls;
    kept->turn = std::move(past);
  }
  const std::size_t bytes = kept->bytes();
  {
    const std::unique_lock<std::shared_mutex> lock(mutex_);
    kept_.push_back(std::move(kept));
    bytes_ += bytes;
  }
  // No later turn ends before this one does.
  if (place.end > 0) reach_from_ = place.end;
  Forget();
}

namespace {

// The hook, reading back from `end`, reaches a line that starts at `begin`
// when it has read the '\n' before it, or the whole file, within read_back
// bytes (line_reader.cc).
bool InReach(const evidence::TurnPlace& earlier, std::int64_t end, std::int64_t read_back) {
  if (earlier.end == 0 || end == 0) return true;  // no place: read whole
  return end - earlier.begin < read_back || (earlier.begin == 0 && end <= read_back);
}

}  // namespace

void SessionHistory::Forget() {
  int floor = next_number_;
  {
    const std::lock_guard<std::mutex> lock(views_mutex_);
    if (!view_floors_.empty()) floor = std::min(floor, *view_floors_.begin());
  }
  const std::unique_lock<std::shared_mutex> lock(mutex_);
  while (!kept_.empty() && first_number_ < floor && !InReach(kept_.front()->place, reach_from_, read_back_bytes_)) {
    bytes_ -= kept_.front()->bytes();
    kept_.pop_front();
    ++first_number_;
  }
}

std::unique_ptr<HistoryView> SessionHistory::View(const std::vector<std::string>& fragments, int whole,
                                                  const evidence::TurnPlace& place) {
  std::vector<std::string> needles;
  bool filtered = true;
  for (const std::string& fragment : fragments) {
    needles.push_back(GramFilter::Project(fragment));
    if (!GramFilter::CanTell(needles.back())) filtered = false;  // cannot rule it out
  }
  int floor = first_number_;
  {
    const std::shared_lock<std::shared_mutex> lock(mutex_);
    while (floor < next_number_ &&
           !InReach(kept_[static_cast<std::size_t>(floor - first_number_)]->place, place.end, read_back_bytes_)) {
      ++floor;
    }
  }
  {
    const std::lock_guard<std::mutex> lock(views_mutex_);
    view_floors_.insert(floor);
  }
  return std::make_unique<ViewImpl>(this, std::move(needles), filtered, whole, floor, next_number_);
}

void SessionHistory::Failed(const Status& status) {
  const std::lock_guard<std::mutex> lock(views_mutex_);
  if (status_.ok()) status_ = status;
}

Status SessionHistory::status() const {
  const std::lock_guard<std::mutex> lock(views_mutex_);
  return status_;
}

std::size_t SessionHistory::bytes() const {
  const std::shared_lock<std::shared_mutex> lock(mutex_);
  return bytes_;
}

int SessionHistory::kept() const {
  const std::shared_lock<std::shared_mutex> lock(mutex_);
  return static_cast<int>(kept_.size());
}

int SessionHistory::dropped() const {
  const std::shared_lock<std::shared_mutex> lock(mutex_);
  return first_number_;
}

int SessionHistory::rereads() const { return rereads_.load(); }

}  // namespace causegate::batch
