// Every bound on input from outside, in one place. Going over a limit is an
// error (the hook then fails open), never a hang or an unbounded allocation.
// RELIABILITY.md ("Limits") lists these with their defaults, what happens
// past each, and the tests at the limit and one past it.
#pragma once

#include <cstddef>

namespace causegate::limits {

// Hook input on stdin or an HTTP body.
inline constexpr std::size_t kMaxHookInputBytes = 8u << 20;
// Nesting of any JSON we parse (hook input, transcript lines, packs).
inline constexpr int kMaxJsonDepth = 128;
// One transcript line; a longer line is skipped as unreadable.
inline constexpr std::size_t kMaxTranscriptLineBytes = 32u << 20;
// The final message that is judged; longer messages are judged on a prefix.
inline constexpr std::size_t kMaxMessageBytes = 1u << 20;
// Distinct quoted fragments of one final message looked up as citations,
// in message order (rules/verdict.cc). Past it a fragment is never looked
// up and cites nothing, so a claim only it would support stays
// unsupported: a message cannot buy a pass, or a slow hook, with volume.
// All of them are found in one pass over each output (needle_set.h).
inline constexpr std::size_t kMaxFragmentsPerMessage = 256;
// Tool output kept per call for citation look-up (head of the output).
inline constexpr std::size_t kMaxToolOutputBytes = 8u << 20;
// All tool output kept for one session's evidence index.
inline constexpr std::size_t kMaxEvidenceBytes = 256u << 20;
// Claude Code subagent transcripts read inside one another to check what a
// subagent quoted (evidence_index.h): its own file is depth 1, the file of
// a subagent it started depth 2. Deeper files are not read, which counts
// as a transcript that is not there.
inline constexpr int kMaxSubagentDepth = 3;
// Tool calls kept per turn.
inline constexpr std::size_t kMaxToolCallsPerTurn = 10000;
// A chat file that is read whole (Gemini CLI writes one JSON document).
inline constexpr std::size_t kMaxChatFileBytes = 64u << 20;
// Protocol tracking (rules/protocol_steps.h): the head and the tail of a
// tool output read for symptoms, each at most this long.
inline constexpr std::size_t kSymptomScanBytes = 64u << 10;
// Tool output read for symptoms per judged turn, newest calls first.
inline constexpr std::size_t kMaxSymptomScanBytesPerTurn = 8u << 20;
// Earlier turns whose tool calls count when the prompt follows up on them.
inline constexpr int kMaxStepTurnsBack = 3;
// Block size for reading a transcript backwards from its end.
inline constexpr std::size_t kReadBlockBytes = 64u << 10;

}  // namespace causegate::limits
