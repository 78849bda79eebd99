// A format-preserving editor for JSON settings files, for `causegate init`.
// The file is parsed into a tree that knows where each value, key and
// member sits in the text; an edit is a few byte ranges replaced, so
// everything init does not add or remove stays byte for byte: indentation,
// key order, compact arrays, comments, trailing commas, the final newline.
// New values are laid out as the container they go into: on their own
// lines with its items' indentation when it spans lines, on one line when
// it does not. Removing an item inverts appending it, so install then
// uninstall gives the original bytes back.
//
// JSONC (// and /* */ comments, trailing commas) is read only where the
// agent itself reads it (Gemini CLI's settings.json); in strict files they
// are errors. Every error names its place as "line L, column C: what".
// Tests: tests/unit/install/jsonc_edit_test.cc, tests/e2e/init_corpus.py.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/status.h"

namespace causegate::install {

enum class JsonSyntax {
  kStrict,  // RFC 8259
  kJsonc,   // plus // and /* */ comments and trailing commas
};

struct JsonNode {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::size_t start = 0;      // the value's first byte
  std::size_t end = 0;        // one past its last byte
  std::size_t key_start = 0;  // object members: the key's opening quote (else start)
  std::string key;            // object members: the key, decoded
  std::string key_raw;        // object members: the key as written, quotes included
  std::string raw;            // scalars: the literal as written
  std::string value;          // strings: decoded
  std::vector<JsonNode> children;  // array items, or object members in file order

  bool is_object() const { return kind == Kind::kObject; }
  bool is_array() const { return kind == Kind::kArray; }
  // The last member named key (as JSON parsers keep the last), or nullptr.
  const JsonNode* Find(std::string_view name) const;
  // Where an item begins: its key for a member, else the value.
  std::size_t item_start() const { return key_start; }
};

class JsoncDocument {
 public:
  // Parses text. Errors: "line L, column C: what" (a comment or trailing
  // comma in a strict file says so). Nesting deeper than
  // limits::kMaxJsonDepth is an error, never a deep recursion.
  static Status Parse(std::string text, JsonSyntax syntax, JsoncDocument* out);

  const std::string& text() const { return text_; }
  const JsonNode& root() const { return root_; }
  JsonSyntax syntax() const { return syntax_; }
  // The text as strict JSON: comments blanked and trailing commas removed
  // (same length, so offsets still hold), for a JSON library to read.
  const std::string& strict_text() const { return strict_; }
  // The text with comments blanked only (trailing commas kept).
  const std::string& plain_text() const { return plain_; }

 private:
  std::string text_;
  std::string plain_;
  std::string strict_;
  JsonNode root_;
  JsonSyntax syntax_ = JsonSyntax::kStrict;
};

// One byte range replaced.
struct TextEdit {
  std::size_t offset = 0;
  std::size_t remove = 0;
  std::string insert;
};

// A new item for AppendItems: key is used for objects only. value is a
// parsed JSON value (Parse of a compact dump), laid out afresh.
struct NewItem {
  std::string key;
  JsonNode value;
};

// Applies edits (any order, non-overlapping) to text.
std::string ApplyEdits(const std::string& text, std::vector<TextEdit> edits);

// The edits that append items at the end of container (an array or object
// of doc), after comments on the last item's line and keeping a trailing
// comma if the container has one.
std::vector<TextEdit> AppendItems(const JsoncDocument& doc, const JsonNode& container,
                                  const std::vector<NewItem>& items);

// The edits that replace the value node with replacement, laid out at the
// node's place (one line if the node was on one line).
std::vector<TextEdit> ReplaceValue(const JsoncDocument& doc, const JsonNode& node, const JsonNode& replacement);

// The edits that remove container's child at index with the separator and
// line it occupied, so removing the item AppendItems added gives the text
// before it. A container left with only white space inside becomes "{}"/"[]".
std::vector<TextEdit> RemoveItem(const JsoncDocument& doc, const JsonNode& container, std::size_t index);

}  // namespace causegate::install
