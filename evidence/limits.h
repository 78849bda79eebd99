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
// What a hook call keeps of one turn while reading it (the judged turn, and
// each earlier turn read for citations): its newest records, tool outputs,
// inputs and texts together, up to this many bytes. Older records of the
// turn are read past to find its prompt but not kept (transcript.cc).
inline constexpr std::size_t kMaxTurnBytes = 64u << 20;
// How far back from a transcript's end the hook reads, the judged turn and
// the earlier ones together. A judged turn whose prompt lies further back
// fails the hook open, saying so; earlier turns past it are not read. The
// format peek reads no further from the file's start. Well inside the
// agents' 30 s hook timeouts: 256 MiB of short narration lines, the
// slowest to parse, take about 5 s (a 16 GB sparse file took 36 s before
// this bound).
inline constexpr std::size_t kMaxScanBackBytes = 256u << 20;
// The hook's peak memory on any transcript, the sum of what the bounds
// above let it hold, with room for the binary and the packs: kMaxTurnBytes
// kept and once more folded for the index, a line of
// kMaxTranscriptLineBytes in the reader's buffer and in the JSON parser's.
// Not enforced by the hook itself; tests/e2e/hook_bounded_judging.py
// checks a 1 GB last turn stays under it.
inline constexpr std::size_t kMaxHookRssBytes = 256u << 20;
// Block size for reading a transcript backwards from its end.
inline constexpr std::size_t kReadBlockBytes = 64u << 10;

}  // namespace causegate::limits
