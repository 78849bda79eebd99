// One pass over the text with an explicit stack (never recursion: the text
// comes from outside), its PositionCounter counting lines and code points
// only up to each place recorded, so every position costs nothing extra.
// Only values at most four levels deep are recorded ("/rules/3/match/0"),
// which is all a pack's errors point at.
#include "rules/json_positions.h"

#include <algorithm>
#include <unordered_set>

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

}  // namespace

std::string JsonPointerToken(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

TextPosition PositionCounter::At(std::size_t offset) {
  offset = std::min(offset, text_.size());
  for (; counted_to_ < offset; ++counted_to_) {
    const auto c = static_cast<unsigned char>(text_[counted_to_]);
    if (c == '\n') {
      ++at_.line;
      at_.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++at_.column;  // a continuation byte belongs to the character before it
    }
  }
  return at_;
}

TextPosition PositionOf(std::string_view text, std::size_t offset) { return PositionCounter(text).At(offset); }

JsonPositions::JsonPositions(std::string_view text) {
  struct Frame {
    bool array = false;
    int next_item = 0;
    std::string pointer;
    std::unordered_set<std::string> keys;  // objects: the keys seen so far
  };
  std::vector<Frame> stack;
  Cursor cursor(text);
  std::string pointer;        // of the value about to be read
  bool record_value = true;   // false for an object member: its key is recorded
  auto record = [&](const std::string& at, TextPosition position) {
    if (stack.size() <= kMaxRecordedDepth) positions_.emplace(at, position);
  };
  auto next_item = [&] {
    Frame& frame = stack.back();
    pointer = frame.pointer + "/" + std::to_string(frame.next_item++);
    record_value = true;
  };
  // At a key: records it and moves past its colon. False when the text is
  // not valid JSON there.
  auto read_member = [&] {
    if (cursor.done() || cursor.peek() != '"') return false;
    const TextPosition at = cursor.here();
    const std::string_view key = cursor.SkipString();
    Frame& frame = stack.back();
    pointer = frame.pointer + "/" + JsonPointerToken(key);
    record(pointer, at);
    if (!frame.keys.emplace(key).second) duplicate_keys_.push_back({pointer, at});
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
      if (record_value) record(pointer, cursor.here());
      if (c == '{' || c == '[') {
        stack.push_back({c == '[', 0, pointer, {}});
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
}

TextPosition JsonPositions::Find(std::string_view pointer) const {
  const auto it = positions_.find(std::string(pointer));
  return it == positions_.end() ? TextPosition{} : it->second;
}

}  // namespace causegate::rules
