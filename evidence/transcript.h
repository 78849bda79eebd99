// Reading Claude Code session transcripts (JSONL; format and turn
// delimitation in ../shared research notes, summarised in
// evidence/TRANSCRIPT.md), and Codex CLI rollouts (evidence/codex_rollout.h).
//
// ReadLastTurn reads the file from its end in blocks and stops at the last
// real user prompt, so a hook call costs what the last turn costs, not what
// the session costs. The returned History reads further back on demand.
// ForEachTurn reads a file front to back and yields every turn, for batch
// checking and for `explain --turn N`; ForEachTurnAt also says where each
// turn sits, and TurnRereader reads one again from there.
//
// Tolerated without error: unknown line types, lines that fail to parse
// (skipped; a bad last line sets Turn::truncated), missing fields.
// Errors (Status not ok): the file cannot be opened or read, it is not a
// regular file, or no user prompt is found at all.
// Tests: tests/unit/evidence/transcript_test.cc.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "evidence/status.h"
#include "evidence/turn.h"

namespace causegate::evidence {

enum class SessionKind {
  kMain,      // a session file: sidechain (subagent) lines are skipped
  kSubagent,  // a subagent's own file: every line is its own
};

struct LastTurn {
  Turn turn;
  std::unique_ptr<History> history;  // earlier turns, newest first; never null
};

// The error of every reader for a file that holds no user prompt: an empty
// session, or one whose agent has not flushed its first turn yet (a Stop
// hook may run before that; gate/transcript_wait.h waits for it).
Status NoPromptError(const std::string& path);
bool IsNoPromptError(const Status& s);

// REQUIRES: path names a regular file.
Status ReadLastTurn(const std::string& path, SessionKind kind, LastTurn* out);

// Calls visit(turn, index) for each turn in file order (index from 0).
// turn.tool_calls hold only that turn's calls. visit returns false to stop.
Status ForEachTurn(const std::string& path, SessionKind kind,
                   const std::function<bool(const Turn&, int index)>& visit);

// Where ForEachTurn found a turn: the bytes [begin, end) of the file from
// its prompt's line up to the next turn's prompt (or the end of the file
// as it was when opened), and the prompt's line number. All 0 when the
// reader cannot say (Gemini chat files, which are read whole).
struct TurnPlace {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t line = 0;
};

// Reads a turn again from its place, for `check`, whose history keeps
// places rather than every earlier turn's text (batch/session_history.h).
// The file stays open; Read uses pread only, so it is thread-safe.
class TurnRereader {
 public:
  virtual ~TurnRereader() = default;
  // Fills out->prompt, out->tool_calls (with their lines) and the other
  // fields the turn's own lines give, as ForEachTurn gave them; the
  // context and Turn::truncated are not set. Errors: a read error, or the
  // bytes at place no longer start with a prompt (the file was rewritten).
  virtual Status Read(const TurnPlace& place, Turn* out) const = 0;
  virtual const std::string& path() const = 0;
  // The file's size when opened: what ForEachTurnAt read.
  virtual std::int64_t file_bytes() const = 0;
};

// visit may move from the turn: the reader is done with it.
using PlacedTurnVisitor = std::function<bool(Turn& turn, int index, const TurnPlace& place)>;

// ForEachTurn, with each turn's place. Before the first visit, *rereader
// is set to what reads the file's turns again from their places; it stays
// null for a file whose places are not known (all of them 0).
Status ForEachTurnAt(const std::string& path, SessionKind kind, const PlacedTurnVisitor& visit,
                     std::shared_ptr<const TurnRereader>* rereader);

// Which agent wrote a transcript. ReadLastTurn and ForEachTurn detect it
// per file and read Codex CLI rollouts (evidence/codex_rollout.h), Gemini
// CLI chat files (evidence/gemini_transcript.h) and Copilot CLI session
// files (evidence/copilot_transcript.h) as well as Claude Code sessions;
// Turn::final_line is set the same way for all. In the Gemini and Copilot
// files a user message starting with "causegate" is the gate's own reason
// sent back, read as stop feedback.
enum class TranscriptFormat {
  kUnknown,        // nothing to tell by: an empty or blank file
  kClaudeCode,     // ~/.claude/projects/.../<session>.jsonl
  kCodexRollout,   // ~/.codex/sessions/.../rollout-*.jsonl
  kGeminiChat,     // ~/.gemini/tmp/<project>/chats/session-*.json[l]
  kCopilotEvents,  // ~/.copilot/session-state/<session>/events.jsonl
};

// "claude-code", "codex-rollout", "gemini-chat", "copilot-events", "unknown".
const char* TranscriptFormatName(TranscriptFormat format);

// Claude Code writes its compaction summaries with a subagent whose id
// starts with "acompact-" (agentId in its lines, agent_id in a
// SubagentStop), in subagents/agent-acompact-<id>.jsonl. IsCompactionAgent
// takes such an id (with or without the "agent-" of its file name);
// IsCompactionTranscript a path whose file name is agent-acompact-*. The
// readers set Turn::compaction_summary from both.
bool IsCompactionAgent(std::string_view agent_id);
bool IsCompactionTranscript(std::string_view path);

// A Claude Code subagent's own transcript is named agent-<id>.jsonl; every
// other file (and every other format) is a main session. check and
// explain read a subagent file as SessionKind::kSubagent by this.
SessionKind SessionKindOf(std::string_view path, TranscriptFormat format);

// Peeks at the first non-blank lines (at most kFormatPeekLines). The first
// line that shows a format decides; Gemini's and Copilot's own shapes are
// looked for first, since a Gemini header carries Claude Code's
// "sessionId" ("$set", "projectHash", type "gemini", a "messages" list, or
// the lines of the JSON document form; a type with a dot and a "data"
// object). Errors: the file cannot be read, or lines were read and none is
// a line of a known format ("path: unknown transcript format: ..."). An
// empty or blank file is kUnknown without an error; the readers then
// report that it holds no prompt.
// Tests: tests/unit/evidence/codex_rollout_test.cc.
inline constexpr int kFormatPeekLines = 16;
Status DetectTranscriptFormat(const std::string& path, TranscriptFormat* format);
// The same peek on a file already open (evidence/line_reader.h), which the
// caller goes on to read: ReadLastTurn opens a transcript once, not once
// to peek and once to read (four system calls a stop in the daemon).
class TranscriptFile;
Status DetectTranscriptFormat(const std::shared_ptr<const TranscriptFile>& file, TranscriptFormat* format);

}  // namespace causegate::evidence
