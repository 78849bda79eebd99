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
// Tests: tests/unit/batch/session_history_test.cc.
#include "batch/session_history.h"

#include <algorithm>
#include <array>
#include <bit>
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

GramFilter::GramFilter(std::size_t expected_bytes) {
  // About 8 bits per kept gram: a made-up number is ruled out by the two or
  // so kept grams that cover it, each a false positive 1 time in 9.
  const std::size_t bits = std::bit_ceil(std::max<std::size_t>(4096, 2 * expected_bytes));
  bits_.assign(bits / 64, 0);
  shift_ = 64 - std::countr_zero(bits);
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
  // offset, every such gram is.
  const auto* p = reinterpret_cast<const unsigned char*>(needle.data());
  for (std::size_t offset = 0; offset < kStride; ++offset) {
    bool all = true;
    for (std::size_t i = offset; i + kGram <= needle.size(); i += kStride) {
      const std::uint64_t bit = Bit(Load(p + i));
      if (((bits_[bit >> 6] >> (bit & 63)) & 1) == 0) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

std::string GramFilter::Project(std::string_view fragment) {
  std::string out;
  ProjectFolded(evidence::FoldForMatch(fragment), [&out](unsigned char c) { out.push_back(static_cast<char>(c)); });
  return out;
}

struct SessionHistory::Kept {
  evidence::PastTurn turn;
  int number = 0;
  std::size_t bytes = 0;
  std::unique_ptr<GramFilter> filter;
};

class SessionHistory::ViewImpl final : public evidence::History {
 public:
  ViewImpl(SessionHistory* owner, std::vector<std::string> needles, bool filtered, int whole)
      : owner_(owner), needles_(std::move(needles)), filtered_(filtered), whole_(whole), next_(owner->kept_.size()) {}

  bool LoadOlder(evidence::PastTurn* out) override {
    while (next_ > 0) {
      Kept* kept = owner_->kept_[--next_].get();
      const bool whole = owner_->next_number_ - kept->number <= whole_;
      if (filtered_ && !whole && !Relevant(kept)) continue;
      *out = kept->turn;
      const int back = owner_->next_number_ - kept->number;
      out->turns_back = back;
      for (evidence::ToolCall& call : out->tool_calls) call.turns_back = back;
      return true;
    }
    return false;
  }

 private:
  bool Relevant(Kept* kept) {
    const GramFilter& filter = owner_->FilterOf(kept);
    for (const std::string& needle : needles_) {
      if (filter.MayContain(needle)) return true;
    }
    return false;
  }

  SessionHistory* owner_;
  std::vector<std::string> needles_;
  bool filtered_;
  int whole_;
  std::size_t next_;
};

SessionHistory::SessionHistory(std::size_t max_bytes) : max_bytes_(max_bytes) {}
SessionHistory::~SessionHistory() = default;

void SessionHistory::Push(const evidence::Turn& turn) {
  auto kept = std::make_unique<Kept>();
  kept->turn.prompt = turn.prompt;
  kept->turn.tool_calls = turn.tool_calls;
  kept->number = next_number_++;
  kept->bytes = sizeof(Kept) + turn.prompt.size();
  for (const evidence::ToolCall& call : turn.tool_calls) kept->bytes += CallBytes(call);
  bytes_ += kept->bytes;
  kept_.push_back(std::move(kept));
  while (bytes_ > max_bytes_ && !kept_.empty()) {
    bytes_ -= kept_.front()->bytes;
    kept_.pop_front();
    ++dropped_;
  }
}

const GramFilter& SessionHistory::FilterOf(Kept* kept) {
  if (kept->filter != nullptr) return *kept->filter;
  // Every text the citation look-up searches in an earlier turn
  // (evidence_index.cc): the prompt, and per call its output, the string
  // values of its input and its command. What the agent supplied is part
  // of those, so a turn that supplied a whole fragment is read too.
  auto filter = std::make_unique<GramFilter>(kept->bytes);
  filter->Add(kept->turn.prompt);
  for (const evidence::ToolCall& call : kept->turn.tool_calls) {
    filter->Add(call.output);
    filter->Add(call.command);
    filter->Add(evidence::ExtractToolInputText(call.name, call.input).all);
  }
  kept->bytes += filter->bytes();
  bytes_ += filter->bytes();
  kept->filter = std::move(filter);
  return *kept->filter;
}

std::unique_ptr<evidence::History> SessionHistory::View(const std::vector<std::string>& fragments, int whole) {
  std::vector<std::string> needles;
  bool filtered = true;
  for (const std::string& fragment : fragments) {
    needles.push_back(GramFilter::Project(fragment));
    if (!GramFilter::CanTell(needles.back())) filtered = false;  // cannot rule it out
  }
  return std::make_unique<ViewImpl>(this, std::move(needles), filtered, whole);
}

}  // namespace causegate::batch
