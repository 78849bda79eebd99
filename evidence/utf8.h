// UTF-8 hygiene for text from outside. JSON parsers reject ill-formed UTF-8
// outright; a hook that refused a whole input (or a transcript line) for
// one bad byte would let that byte switch the gate off, so bad bytes are
// replaced with U+FFFD instead.
// Tests: tests/unit/evidence/utf8_test.cc.
#pragma once

#include <string>
#include <string_view>

namespace causegate::evidence {

bool IsValidUtf8(std::string_view text);

// text with every ill-formed sequence replaced by U+FFFD (EF BF BD) and
// every NUL byte dropped (JSON cannot carry a raw NUL).
std::string ScrubUtf8(std::string_view text);

// The longest prefix of text of at most max_bytes that does not end inside
// a UTF-8 sequence.
std::string_view Utf8Prefix(std::string_view text, std::size_t max_bytes);

}  // namespace causegate::evidence
