// Where things are in a JSON text, for error messages: nlohmann keeps no
// positions, so a rule pack's problems are located by a second, iterative
// scan of the text that has already parsed. Each object key and array item
// is found by its JSON Pointer ("/rules/3/pattern", "/rules/3/match/0"), and
// a key written twice in one object (which nlohmann silently resolves to
// the last) is reported.
// Tests: tests/unit/rules/json_positions_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace causegate::rules {

// A place in a text: 1-based line and column, the column counted in
// characters (UTF-8 code points), as editors count it.
struct TextPosition {
  int line = 0;    // 0: unknown
  int column = 0;  // 0: unknown
};

// The position of byte offset in text (past the end: the end).
TextPosition PositionOf(std::string_view text, std::size_t offset);

// Positions of offsets asked in increasing order, in one pass over a text:
// each costs only the bytes since the one before. Counting from the top,
// or from the start of the line, for each of 10,000 rules of a pack on one
// line (as json.dump writes it) made loading quadratic: seconds, not ms.
class PositionCounter {
 public:
  // Keeps a reference to text, which must outlive the counter.
  explicit PositionCounter(std::string_view text) : text_(text) {}

  // The position of byte offset (past the end: the end). REQUIRES: offset
  // is at least every offset asked before (a smaller one gives the last
  // position asked).
  TextPosition At(std::size_t offset);

 private:
  std::string_view text_;
  std::size_t counted_to_ = 0;  // bytes [0, counted_to_) are counted
  TextPosition at_{1, 1};       // the position of counted_to_
};

// A key as a JSON Pointer reference token (RFC 6901: "~" and "/" escaped),
// for building the pointers Find takes.
std::string JsonPointerToken(std::string_view key);

class JsonPositions {
 public:
  // REQUIRES: text is valid JSON (a text that is not is scanned as far as
  // it goes, never past its end). Keeps no reference to text.
  explicit JsonPositions(std::string_view text);

  // The position of the key (for an object member) or the value (for an
  // array item, or "" for the whole text) at pointer; {0, 0} when absent.
  // Keys are compared as written between their quotes, so a key spelt with
  // escapes is found only by that spelling.
  TextPosition Find(std::string_view pointer) const;

  struct DuplicateKey {
    std::string pointer;    // "/rules/2/pattern": the member written twice
    TextPosition position;  // of its second (or later) occurrence
  };
  // Every key written more than once in its object, in text order.
  const std::vector<DuplicateKey>& duplicate_keys() const { return duplicate_keys_; }

 private:
  std::unordered_map<std::string, TextPosition> positions_;
  std::vector<DuplicateKey> duplicate_keys_;
};

}  // namespace causegate::rules
