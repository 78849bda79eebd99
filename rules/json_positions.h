// Where things are in a JSON text, for error messages: nlohmann keeps no
// positions, so a rule pack's problems are located by a second, iterative
// scan of the text that has already parsed. Each object key and array item
// is found by its JSON Pointer ("/rules/3/pattern", "/rules/3/match/0"), and
// a key written twice in one object (which nlohmann silently resolves to
// the last) is reported. Only the first four levels are kept: all that a
// pack's errors point at, and a bound on what a text nested deep costs.
// Tests: tests/unit/rules/json_positions_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
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
  // Every key written more than once in its object (of the first four
  // levels), in text order.
  const std::vector<DuplicateKey>& duplicate_keys() const { return duplicate_keys_; }

 private:
  // A key or an item, kept by its container and key, not by a pointer
  // string of its own: strings per key were a fifth of loading a large
  // pack, and a pointer copied per level made a text nested 100,000 deep
  // take gigabytes.
  struct Entry {
    std::uint32_t container;  // the entry of its object or array; kNone for the whole text
    std::uint32_t key_begin;  // a member's key as a reference token, in keys_
    std::uint32_t key_size;   // (an array item has none: it is found by its index)
    TextPosition at;
    bool array;               // the value is an array: its children are items
  };
  static constexpr std::uint32_t kNone = UINT32_MAX;

  std::string_view KeyOf(const Entry& entry) const;
  // The entry of container's child token (a key, or an item's index), or kNone.
  std::uint32_t Child(std::uint32_t container, std::string_view token) const;
  std::string PointerOf(std::uint32_t entry) const;

  std::string keys_;            // the members' keys, back to back
  std::vector<Entry> entries_;  // in text order: entries_[0] is the whole text
  // The children of entry e are children_[first_child_[e], first_child_[e + 1]):
  // an array's items in order, an object's members sorted by key (so a key
  // written twice is next to its first).
  std::vector<std::uint32_t> first_child_;
  std::vector<std::uint32_t> children_;
  std::vector<DuplicateKey> duplicate_keys_;
};

}  // namespace causegate::rules
