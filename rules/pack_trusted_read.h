// The packs compiled in, read by simdjson: a hook call reads them at every
// stop, and nlohmann's parser and DOM were a fifth of a cold call (14.6 M
// of 104.7 M instructions, bench/RESULTS.md finding 13). Builds the pack
// ReadPack's own reading would, or gives up at the first thing that is not
// a clean pack (a missing or unknown field, a key written twice, a
// duplicate id, ...), and ReadPack then reads the text its own way, which
// says what is wrong and where. The built-in packs are linted by the
// tests, so a hook call never gives up. Positions are not scanned (as
// PackCheck::kTrusted promises).
// Tests: tests/unit/rules/pack_test.cc (both readings build equal packs),
// fuzz/rule_pack_fuzz.cc.
#pragma once

#include <string>
#include <string_view>

#include "rules/pack.h"

namespace causegate::rules {

// True with *out filled; false when the text is not a clean pack (*out is
// then left half-filled: the caller reads the text again).
bool ReadTrustedPack(std::string_view json_text, const std::string& file, PackReading* out);

}  // namespace causegate::rules
