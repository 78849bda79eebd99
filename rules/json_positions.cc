// One pass over the text with an explicit stack (never recursion: the text
// comes from outside) of a few bytes a level, its PositionCounter counting
// lines and code points only up to each place recorded, so every position
// costs nothing extra. Only values at most four levels deep are recorded
// ("/rules/3/match/0"), which is all a pack's errors point at; children are
// indexed once at the end, so a lookup is a binary search a level.
#include "rules/json_positions.h"

#include <algorithm>
#include <cstring>

namespace causegate::rules {
namespace {

constexpr std::size_t kMaxRecordedDepth = 4;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Walks text byte by byte; here() is the line and column of the next byte.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text), counter_(text) {}

  bool done() const { return i_ >= text_.size(); }
  char peek() const { return text_[i_]; }
  TextPosition here() { return counter_.At(i_); }

  void Advance() {
    if (!done()) ++i_;
  }
  void SkipSpace() {
    while (!done() && IsSpace(peek())) Advance();
  }
  // At a '"': moves past the closing quote; returns what is between them.
  std::string_view SkipString() {
    Advance();
    const std::size_t begin = i_;
    while (!done()) {
      const char c = peek();
      if (c == '\\') {
        Advance();
        Advance();
      } else if (c == '"') {
        const std::string_view inside = text_.substr(begin, i_ - begin);
        Advance();
        return inside;
      } else {
        Advance();
      }
    }
    return text_.substr(begin);
  }
  void SkipLiteral() {
    while (!done() && !IsSpace(peek()) && peek() != ',' && peek() != ']' && peek() != '}') Advance();
  }

 private:
  std::string_view text_;
  std::size_t i_ = 0;
  PositionCounter counter_;
};

// Appends key to out as a JSON Pointer reference token.
void AppendPointerToken(std::string_view key, std::string* out) {
  for (const char c : key) {
    if (c == '~') {
      *out += "~0";
    } else if (c == '/') {
      *out += "~1";
    } else {
      *out += c;
    }
  }
}

// An array index as a pointer writes it ("0", "12", never "012"), or -1.
long long ItemIndex(std::string_view token) {
  if (token.empty() || token.size() > 9 || (token.size() > 1 && token[0] == '0')) return -1;
  long long index = 0;
  for (const char c : token) {
    if (c < '0' || c > '9') return -1;
    index = index * 10 + (c - '0');
  }
  return index;
}

}  // namespace

std::string JsonPointerToken(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  AppendPointerToken(key, &out);
  return out;
}

TextPosition PositionCounter::At(std::size_t offset) {
  offset = std::min(offset, text_.size());
  // Whole lines are skipped by memchr: only the last line's bytes are
  // counted one by one (a hook call finds every built-in rule's id, and a
  // byte loop over the 200 KB of packs was 2 M instructions of it).
  while (counted_to_ < offset) {
    const void* newline = std::memchr(text_.data() + counted_to_, '\n', offset - counted_to_);
    if (newline == nullptr) break;
    ++at_.line;
    at_.column = 1;
    counted_to_ = static_cast<std::size_t>(static_cast<const char*>(newline) - text_.data()) + 1;
  }
  for (; counted_to_ < offset; ++counted_to_) {
    // A continuation byte belongs to the character before it.
    if ((static_cast<unsigned char>(text_[counted_to_]) & 0xC0) != 0x80) ++at_.column;
  }
  return at_;
}

TextPosition PositionOf(std::string_view text, std::size_t offset) { return PositionCounter(text).At(offset); }

JsonPositions::JsonPositions(std::string_view text) {
  struct Frame {
    bool array = false;
    std::uint32_t next_item = 0;
    std::uint32_t entry = kNone;  // the container's own entry
  };
  std::vector<Frame> stack;
  Cursor cursor(text);
  std::uint32_t value_entry = kNone;  // of the value about to be read
  bool record_value = true;           // false for an object member: its key is recorded
  // Records a child of the innermost container (or the whole text) at
  // position, key "" for an item; its entry, or kNone past the levels kept.
  auto record = [&](std::string_view key, TextPosition position) {
    const std::uint32_t container = stack.empty() ? kNone : stack.back().entry;
    const bool kept = stack.empty() || (container != kNone && stack.size() <= kMaxRecordedDepth);
    // A text past 4 GiB of keys or entries keeps what fits.
    if (!kept || entries_.size() >= kNone || keys_.size() + 2 * key.size() >= kNone) return kNone;
    const auto key_begin = static_cast<std::uint32_t>(keys_.size());
    AppendPointerToken(key, &keys_);
    entries_.push_back({container, key_begin, static_cast<std::uint32_t>(keys_.size() - key_begin), position, false});
    return static_cast<std::uint32_t>(entries_.size() - 1);
  };
  auto next_item = [&] {
    ++stack.back().next_item;
    record_value = true;
  };
  // At a key: records it and moves past its colon. False when the text is
  // not valid JSON there.
  auto read_member = [&] {
    if (cursor.done() || cursor.peek() != '"') return false;
    const TextPosition at = cursor.here();
    value_entry = record(cursor.SkipString(), at);
    cursor.SkipSpace();
    if (cursor.done() || cursor.peek() != ':') return false;
    cursor.Advance();
    record_value = false;
    return true;
  };

  enum class State { kValue, kFirstMember, kFirstItem, kAfterValue };
  State state = State::kValue;
  while (true) {
    cursor.SkipSpace();
    if (cursor.done()) break;
    const char c = cursor.peek();
    if (state == State::kValue) {
      if (record_value) value_entry = record("", cursor.here());
      if (c == '{' || c == '[') {
        if (value_entry != kNone) entries_[value_entry].array = c == '[';
        stack.push_back({c == '[', 0, value_entry});
        cursor.Advance();
        state = c == '[' ? State::kFirstItem : State::kFirstMember;
        continue;
      }
      if (c == '"') {
        cursor.SkipString();
      } else {
        cursor.SkipLiteral();
      }
      state = State::kAfterValue;
      continue;
    }
    if (stack.empty()) break;  // text after the top-level value
    if (c == ']' || c == '}') {
      cursor.Advance();
      stack.pop_back();
      state = State::kAfterValue;
      continue;
    }
    if (state == State::kAfterValue) {
      if (c != ',') break;
      cursor.Advance();
      cursor.SkipSpace();
    }
    if (stack.back().array) {
      next_item();
    } else if (!read_member()) {
      break;
    }
    state = State::kValue;
  }

  // Each entry's children, together: counted, placed in text order, then
  // each object's members sorted by key.
  first_child_.assign(entries_.size() + 1, 0);
  for (const Entry& e : entries_) {
    if (e.container != kNone) ++first_child_[e.container + 1];
  }
  for (std::size_t i = 1; i < first_child_.size(); ++i) first_child_[i] += first_child_[i - 1];
  children_.resize(first_child_.back());
  std::vector<std::uint32_t> next(first_child_.begin(), first_child_.end() - 1);
  for (std::uint32_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].container != kNone) children_[next[entries_[i].container]++] = i;
  }
  std::vector<std::uint32_t> repeated;  // entries of the second (or later) of a key
  for (std::uint32_t e = 0; e < entries_.size(); ++e) {
    if (entries_[e].array) continue;
    const auto begin = children_.begin() + first_child_[e];
    const auto end = children_.begin() + first_child_[e + 1];
    // Ties in text order (entry order), so a key written twice keeps its
    // first first; std::sort, as a stable sort takes a buffer per object.
    std::sort(begin, end, [&](std::uint32_t a, std::uint32_t b) {
      const std::string_view key_a = KeyOf(entries_[a]);
      const std::string_view key_b = KeyOf(entries_[b]);
      return key_a != key_b ? key_a < key_b : a < b;
    });
    for (auto it = begin; it != end && it + 1 != end; ++it) {
      if (KeyOf(entries_[*it]) == KeyOf(entries_[*(it + 1)])) repeated.push_back(*(it + 1));
    }
  }
  std::sort(repeated.begin(), repeated.end());
  for (const std::uint32_t e : repeated) duplicate_keys_.push_back({PointerOf(e), entries_[e].at});
}

std::string_view JsonPositions::KeyOf(const Entry& entry) const {
  return std::string_view(keys_).substr(entry.key_begin, entry.key_size);
}

std::uint32_t JsonPositions::Child(std::uint32_t container, std::string_view token) const {
  const auto begin = children_.begin() + first_child_[container];
  const auto end = children_.begin() + first_child_[container + 1];
  if (entries_[container].array) {
    const long long index = ItemIndex(token);
    return index >= 0 && index < end - begin ? *(begin + index) : kNone;
  }
  const auto it = std::lower_bound(begin, end, token,
                                   [&](std::uint32_t e, std::string_view key) { return KeyOf(entries_[e]) < key; });
  return it != end && KeyOf(entries_[*it]) == token ? *it : kNone;
}

std::string JsonPositions::PointerOf(std::uint32_t entry) const {
  std::vector<std::uint32_t> path;  // from entry up to a child of the whole text
  for (std::uint32_t e = entry; entries_[e].container != kNone; e = entries_[e].container) path.push_back(e);
  std::string out;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const Entry& e = entries_[*it];
    out += "/";
    if (entries_[e.container].array) {
      // An array's items are in text order, as entries are.
      const auto first = children_.begin() + first_child_[e.container];
      out += std::to_string(std::lower_bound(first, children_.begin() + first_child_[e.container + 1], *it) - first);
    } else {
      out += KeyOf(e);
    }
  }
  return out;
}

TextPosition JsonPositions::Find(std::string_view pointer) const {
  if (entries_.empty()) return {};
  std::uint32_t at = 0;  // the whole text
  for (std::size_t i = 0; i < pointer.size() && at != kNone;) {
    if (pointer[i] != '/') return {};
    const std::size_t end = std::min(pointer.find('/', i + 1), pointer.size());
    at = Child(at, pointer.substr(i + 1, end - i - 1));
    i = end;
  }
  return at == kNone ? TextPosition{} : entries_[at].at;
}

}  // namespace causegate::rules
