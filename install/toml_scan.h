// A TOML document read as a list of items (table headers, key/value
// pairs, blank and comment lines) with their byte ranges, so that a caller
// can change one item and copy every other byte through: comments, order,
// spacing and everything causegate does not understand stay as written.
// Values are delimited, not interpreted (arrays and inline tables may span
// lines; strings of all four kinds are skipped correctly), so a `[` inside
// a string or a multi-line array is never taken for a table header.
// Tests: tests/unit/install/toml_scan_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/status.h"

namespace causegate::install {

struct TomlItem {
  enum class Kind {
    kTrivia,      // blank or comment-only line
    kTable,       // [a."b".c]
    kArrayTable,  // [[a.b]]
    kKeyValue,    // a.b = value
  };
  Kind kind = Kind::kTrivia;
  // kTable / kArrayTable: the header's key path. kKeyValue: the full key
  // path, the enclosing table's path followed by the key's own parts (a
  // pair under an array table gets "[]" after the array's path, so it can
  // never be mistaken for a plain table's).
  std::vector<std::string> path;
  std::size_t key_parts = 0;  // kKeyValue: how many of path's parts the line itself wrote
  std::size_t begin = 0;      // first byte of the item's first line
  std::size_t end = 0;        // one past the '\n' ending its last line (or the text's end)
  // kKeyValue: the value's bytes. kTable / kArrayTable: the header from its
  // first '[' to past its last ']'.
  std::size_t value_begin = 0;
  std::size_t value_end = 0;
  int line = 0;  // 1-based line of begin
};

// Splits text into items covering it without gaps, in order.
// Errors ("LINE: what"): a line that is not TOML as far as the items go (an
// unterminated string or bracket, a bad key, text after a value).
Status ScanToml(std::string_view text, std::vector<TomlItem>* out);

// The string at the full key path, when text has one: *found false when
// nothing is written there (or it is not a single-line string).
// Errors: as ScanToml.
Status TomlStringAt(std::string_view text, const std::vector<std::string>& path, bool* found, std::string* value);

// The value of a basic ("...") or literal ('...') single-line string as
// written in raw (escapes decoded). False for anything else.
bool TomlStringValue(std::string_view raw, std::string* out);

// key written as a TOML key part: bare when it is [A-Za-z0-9_-]+, else a
// basic string with '"', '\' and control characters escaped.
std::string TomlKey(std::string_view key);

}  // namespace causegate::install
