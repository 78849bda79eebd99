// Telling the agents' transcripts apart by their first lines. A Gemini CLI
// chat file has a header with "projectHash", "$set" update lines and
// messages of type "gemini" (or is one JSON document with "messages"); a
// Copilot CLI events.jsonl line is {type: "a.b", data: {...}}; a rollout
// line is an envelope {"timestamp", "type", "payload"} whose type is one of
// Codex's record types; a Claude Code line has a type of its own (user,
// assistant, summary, file-history-snapshot, ...) or the session fields
// every record of it carries (sessionId, uuid, parentUuid). Gemini is
// looked for first: its header carries "sessionId" too, and was read as
// Claude Code with no turns. Lines
// that are not JSON (a cut-off write) are passed over; the first line that
// shows a format decides, so a damaged first line costs nothing.
// Tests: tests/unit/evidence/codex_rollout_test.cc.
#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "evidence/limits.h"
#include "evidence/line_reader.h"
#include "evidence/simd_json.h"
#include "evidence/transcript.h"
#include "evidence/utf8.h"

namespace causegate::evidence {
namespace {

constexpr std::array<std::string_view, 5> kCodexTypes = {"session_meta", "response_item", "event_msg",
                                                         "turn_context", "compacted"};
constexpr std::array<std::string_view, 8> kClaudeTypes = {
    "user", "assistant", "system", "summary", "progress", "file-history-snapshot", "queue-operation",
    "attachment"};
constexpr std::array<std::string_view, 4> kClaudeFields = {"sessionId", "uuid", "parentUuid", "leafUuid"};

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

template <std::size_t N>
bool OneOf(std::string_view value, const std::array<std::string_view, N>& set) {
  for (const std::string_view item : set) {
    if (value == item) return true;
  }
  return false;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// A line of Gemini's JSON document form (JSON.stringify with an indent):
// "{" first, then its top-level keys one per line.
bool IsGeminiDocumentLine(std::string_view line) {
  line = Trim(line);
  for (const std::string_view key : {"\"sessionId\":", "\"projectHash\":", "\"messages\":"}) {
    if (line.substr(0, key.size()) == key) return true;
  }
  return false;
}

// Copilot CLI events are {type: "session.start" | "user.message" | ...,
// data: {...}, id, timestamp}: no other format's type has a dot.
bool IsCopilotEvent(std::string_view type, simd::Element root) {
  simd::Element data;
  return type.find('.') != std::string_view::npos && type.front() != '.' && simd::Field(root, "data", &data) &&
         data.is_object();
}

TranscriptFormat FormatOfLine(std::string_view line, std::string* type_seen) {
  simd::Element root;
  if (!simd::Parse(line, &root)) {
    if (IsValidUtf8(line) || !simd::Parse(ScrubUtf8(line), &root)) return TranscriptFormat::kUnknown;
  }
  if (!root.is_object()) return TranscriptFormat::kUnknown;
  const std::string_view type = simd::StringField(root, "type");
  simd::Element field;
  // Gemini first: its header line holds "sessionId" as Claude Code's lines do.
  if (simd::Field(root, "$set", &field) || simd::Field(root, "projectHash", &field) || type == "gemini" ||
      (simd::Field(root, "messages", &field) && field.is_array())) {
    return TranscriptFormat::kGeminiChat;
  }
  if (IsCopilotEvent(type, root)) return TranscriptFormat::kCopilotEvents;
  simd::Element payload;
  if (OneOf(type, kCodexTypes) && simd::Field(root, "payload", &payload)) return TranscriptFormat::kCodexRollout;
  if (OneOf(type, kClaudeTypes)) return TranscriptFormat::kClaudeCode;
  for (const std::string_view key : kClaudeFields) {
    if (simd::Field(root, key, &field)) return TranscriptFormat::kClaudeCode;
  }
  if (type_seen->empty()) *type_seen = type.empty() ? "an object without \"type\"" : "type \"" + std::string(type) + "\"";
  return TranscriptFormat::kUnknown;
}

}  // namespace

const char* TranscriptFormatName(TranscriptFormat format) {
  switch (format) {
    case TranscriptFormat::kClaudeCode: return "claude-code";
    case TranscriptFormat::kCodexRollout: return "codex-rollout";
    case TranscriptFormat::kGeminiChat: return "gemini-chat";
    case TranscriptFormat::kCopilotEvents: return "copilot-events";
    case TranscriptFormat::kUnknown: return "unknown";
  }
  return "unknown";
}

Status DetectTranscriptFormat(const std::string& path, TranscriptFormat* format) {
  *format = TranscriptFormat::kUnknown;
  std::unique_ptr<TranscriptFile> file;
  if (Status s = TranscriptFile::Open(path, &file); !s.ok()) return s;
  return DetectTranscriptFormat(std::shared_ptr<const TranscriptFile>(std::move(file)), format);
}

Status DetectTranscriptFormat(const std::shared_ptr<const TranscriptFile>& file, TranscriptFormat* format) {
  *format = TranscriptFormat::kUnknown;
  const std::string& path = file->path();
  // The peek reads no further than the backward read would: a file that is
  // one hole of NUL bytes (a sparse file) is refused, not read to its end.
  ForwardLineReader reader(file, limits::kReadBlockBytes, limits::kMaxTranscriptLineBytes,
                           limits::kMaxScanBackBytes);
  RawLine raw;
  int seen = 0;
  std::string type_seen;
  bool document = false;  // the first line opens a JSON document: "{"
  while (seen < kFormatPeekLines && reader.Next(&raw)) {
    if (!raw.too_long && IsBlank(raw.text)) continue;
    ++seen;
    if (raw.too_long) continue;
    if (seen == 1 && Trim(raw.text) == "{") document = true;
    if (document && IsGeminiDocumentLine(raw.text)) {
      *format = TranscriptFormat::kGeminiChat;
      return Status::Ok();
    }
    const TranscriptFormat found = FormatOfLine(raw.text, &type_seen);
    if (found != TranscriptFormat::kUnknown) {
      *format = found;
      return Status::Ok();
    }
  }
  if (!reader.status().ok()) return reader.status();
  if (seen == 0) return Status::Ok();
  return Status::Error(path + ": unknown transcript format: the first " + std::to_string(seen) +
                       " line(s) are not records of a known format: Claude Code session, Codex CLI rollout, "
                       "Gemini CLI chat file or Copilot CLI events.jsonl (" +
                       (type_seen.empty() ? std::string("no JSON object") : "first object: " + type_seen) + ")");
}

}  // namespace causegate::evidence
