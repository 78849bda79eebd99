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
// Tests: tests/unit/evidence/codex_rollout_test.cc, claude_fast_line_test.cc.
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <string_view>

namespace causegate::evidence::simd {

using Element = simdjson::dom::element;

// Parser memory kept between lines; a longer line's buffers are freed.
inline constexpr std::size_t kSimdKeepBytes = 8u << 20;

// Parses one line. False when it is not JSON, nested deeper than
// kMaxJsonDepth, or not valid UTF-8 (simdjson refuses it; callers that must
// tolerate bad bytes retry on ScrubUtf8 text). *root stays valid until the
// next Parse on the same thread.
bool Parse(std::string_view text, Element* root);

// The value of key in object (the last one if repeated); false when object
// is not an object or has no such key.
bool Field(Element object, std::string_view key, Element* out);
// The string value of key, or "" when missing or not a string. The view
// lives as long as *root.
std::string_view StringField(Element object, std::string_view key);
// True only when key holds the boolean true.
bool TrueField(Element object, std::string_view key);

}  // namespace causegate::evidence::simd
