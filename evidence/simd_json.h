// simdjson for the readers that parse every line of a file: Codex CLI
// rollouts (codex_rollout.cc), Claude Code tool-result lines when a whole
// file is read (claude_fast_line.cc) and format detection
// (transcript_format.cc). Internal to evidence/; nlohmann::json stays the
// parser of everything else.
//
// One DOM parser per thread, reused across lines (simdjson's speed comes
// from reusing its buffers); its nesting limit is limits::kMaxJsonDepth and
// it gives back memory after a line over kSimdKeepBytes. Field look-ups
// take the last occurrence of a duplicated key, as nlohmann::json does, so
// both parsers read a line the same way.
//
// A DOM is sized by the text it is built from (simdjson sets aside a tape
// of 8 bytes and an index of 4 per byte of the document), so ParseCut,
// which reads Claude Code's tool-result lines, builds it over the line with
// its long strings cut out and decodes those strings from the line when
// they are read: its buffers stay the size of a line's structure. Codex
// rollouts and format detection still parse whole lines (Parse).
// Tests: tests/unit/evidence/codex_rollout_test.cc, claude_fast_line_test.cc.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace causegate::evidence::simd {

using Element = simdjson::dom::element;

// Parser memory kept between lines; a longer line's buffers are freed.
inline constexpr std::size_t kSimdKeepBytes = 8u << 20;

// Parses one line. False when it is not JSON, nested deeper than
// kMaxJsonDepth, or not valid UTF-8 (simdjson refuses it; callers that must
// tolerate bad bytes retry on ScrubUtf8 text). *root stays valid until the
// next Parse on the same thread.
bool Parse(std::string_view text, Element* root);

// Strings at least this long between their quotes, as written, are cut
// out of a line by ParseCut. Such a string decodes to at least a sixth as
// many bytes (an escape is at most 6 bytes written for 1 read), so it can
// never equal a field name or a type compared against.
inline constexpr std::size_t kCutStringBytes = 1024;

// The strings ParseCut cut out of a line, as written (escapes and all), in
// the line's own bytes: valid while those bytes are.
class CutStrings {
 public:
  // Appends the text of the string value to *out: decoded from the line
  // when it was cut out, simdjson's when not. False when value is not a
  // string.
  bool Append(Element value, std::string* out) const;
  std::size_t size() const { return written_.size(); }

 private:
  friend bool ParseCut(std::string_view text, CutStrings* cuts, Element* root);
  std::vector<std::string_view> written_;
};

// Parse, for lines that may hold long strings: simdjson builds the DOM over
// the line with each string of kCutStringBytes or more replaced by a short
// placeholder (a tool-result line is mostly one or two such strings), so
// its buffers follow the line's structure rather than its length. The
// strings cut out are checked here as simdjson would check them (valid
// UTF-8, no control character, escapes), and decoded only when read
// (CutStrings::Append). A line whose long strings hold an escape this check
// leaves to simdjson (a surrogate outside a pair, a bad one), whose short
// strings could be taken for a placeholder, or whose skeleton simdjson
// refuses, is parsed whole, as by Parse: so what is read, and what is
// refused, is Parse's. *root as for Parse; *cuts until the next parse on
// this thread, and while text's bytes live.
bool ParseCut(std::string_view text, CutStrings* cuts, Element* root);

// The value of key in object (the last one if repeated); false when object
// is not an object or has no such key.
bool Field(Element object, std::string_view key, Element* out);
// The string value of key, or "" when missing or not a string. The view
// lives as long as *root.
std::string_view StringField(Element object, std::string_view key);
// True only when key holds the boolean true.
bool TrueField(Element object, std::string_view key);

}  // namespace causegate::evidence::simd
