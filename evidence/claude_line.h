// One line of a Claude Code transcript, reduced to what a turn needs.
// Internal to evidence/: transcript.cc reads lines, this file says what each
// one is (a real prompt, stop-hook feedback, an assistant message part,
// tool results, or nothing the gate uses). The classification of prompts
// follows the research notes (hook-protocols.md section 2.8), summarised in
// evidence/TRANSCRIPT.md.
// Tests: tests/unit/evidence/transcript_test.cc (through the readers) and
// tests/unit/evidence/claude_line_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/json_bounds.h"  // JsonDepthWithin, used before every parse
#include "evidence/transcript.h"
#include "evidence/turn.h"

namespace causegate::evidence {

struct AssistantBlock {
  enum class Kind { kText, kToolUse };
  Kind kind = Kind::kText;
  std::string text;  // kText: the text (white-space-only blocks are dropped)
  ToolCall call;     // kToolUse: id, name, input, command
};

struct ToolResult {
  std::string tool_use_id;
  std::string output;  // text blocks joined by '\n', cut at kMaxToolOutputBytes
  bool is_error = false;
};

// What one line says about its session, each field "" when it does not
// say: the turn assembly keeps the latest value of each (transcript.cc).
struct LineFacts {
  std::string session_id;
  std::string agent_version;
  std::string model;
  std::string timestamp;  // the line's own time (ISO 8601 as written)
  std::string cwd;
};

// Copies the fields of from that are set into *to.
void AbsorbFacts(const LineFacts& from, LineFacts* to);

// An ISO 8601 time as written ("2026-02-10T21:11:56.846Z"), or one from
// epoch milliseconds ("1765629411136") in UTC with milliseconds; "" for
// anything else.
std::string IsoTime(std::string_view text);

struct LineRecord {
  enum class Kind {
    kIgnored,       // JSON the turn does not use: other types, meta lines, ...
    kUnreadable,    // not JSON, nested too deep, too long, not an object
    kPrompt,        // a real user prompt; text holds it
    kStopFeedback,  // "Stop hook feedback:" line; text holds the reason
    kAssistant,     // part of an assistant message: message_id, blocks
    kToolResults,   // a user line carrying tool results
  };
  Kind kind = Kind::kIgnored;
  std::int64_t line = 0;    // set by the caller
  std::string text;
  std::string message_id;   // "" when the line has none
  std::vector<AssistantBlock> blocks;
  std::vector<ToolResult> results;
  bool compaction_agent = false;  // kPrompt: written by a compaction subagent
  LineFacts facts;                // whatever kind the line is
};

// Classifies one JSONL line (without its '\n'). Never throws; anything it
// cannot read is kUnreadable. A line that fails to parse only because of
// ill-formed UTF-8 or a lone UTF-16 surrogate escape (a JavaScript string
// cut inside a surrogate pair) is read with U+FFFD in their place. kMain
// drops sidechain (subagent) lines as kIgnored; kSubagent keeps them.
LineRecord ParseClaudeLine(std::string_view line, SessionKind kind);

// The text of a tool call's input, for the evidence index.
struct ToolInputText {
  std::string all;       // every string value of the input, joined by '\n'
  // The values the agent supplies as its own text (judgement.md section 3
  // rule 4): Write content, Edit new_string, a subagent's prompt, a path,
  // ...; not what only refers to text that exists (an Edit's old_string, a
  // search's pattern, glob and path), nor a description the tool never
  // prints. Shell tools take theirs from the command (shell_command.h).
  std::string supplied;
};
// input_json is ToolCall::input. Unparseable input yields its raw text in
// `all`. Never throws.
ToolInputText ExtractToolInputText(std::string_view name, std::string_view input_json);

}  // namespace causegate::evidence
