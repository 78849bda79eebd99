// ParseClaudeLine, fast: every Claude Code line the readers parse (the
// last turn for the hook and daemon, every turn for check). Tool-result
// lines carry almost all of a transcript's bytes, often twice (the result
// block and Claude Code's own toolUseResult copy), and nlohmann::json reads
// them at some 60 MB/s; this reads them with simdjson and hands every other
// line, and every line simdjson refuses, to ParseClaudeLine. Internal to
// evidence/.
// Tests: tests/unit/evidence/claude_fast_line_test.cc (same records as
// ParseClaudeLine, line for line, on the fixtures and edge cases).
#pragma once

#include <string_view>

#include "evidence/claude_line.h"

namespace causegate::evidence {

// Same contract and result as ParseClaudeLine.
LineRecord ParseClaudeLineFast(std::string_view line, SessionKind kind);

}  // namespace causegate::evidence
