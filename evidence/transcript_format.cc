// Telling a Claude Code session from a Codex CLI rollout by its first lines.
// A rollout line is an envelope {"timestamp", "type", "payload"} whose type
// is one of Codex's record types; a Claude Code line has a type of its own
// (user, assistant, summary, file-history-snapshot, ...) or the session
// fields every record of it carries (sessionId, uuid, parentUuid). Lines
// that are not JSON (a cut-off write) are passed over; the first line that
// shows a format decides, so a damaged first line costs nothing.
// Tests: tests/unit/evidence/codex_rollout_test.cc.
#include <array>
#include <memory>
#include <string>
#include <string_view>

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

TranscriptFormat FormatOfLine(std::string_view line, std::string* type_seen) {
  simd::Element root;
  if (!simd::Parse(line, &root)) {
    if (IsValidUtf8(line) || !simd::Parse(ScrubUtf8(line), &root)) return TranscriptFormat::kUnknown;
  }
  if (!root.is_object()) return TranscriptFormat::kUnknown;
  const std::string_view type = simd::StringField(root, "type");
  simd::Element payload;
  if (OneOf(type, kCodexTypes) && simd::Field(root, "payload", &payload)) return TranscriptFormat::kCodexRollout;
  if (OneOf(type, kClaudeTypes)) return TranscriptFormat::kClaudeCode;
  simd::Element field;
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
    case TranscriptFormat::kUnknown: return "unknown";
  }
  return "unknown";
}

Status DetectTranscriptFormat(const std::string& path, TranscriptFormat* format) {
  *format = TranscriptFormat::kUnknown;
  std::unique_ptr<TranscriptFile> file;
  if (Status s = TranscriptFile::Open(path, &file); !s.ok()) return s;
  ForwardLineReader reader(std::move(file));
  RawLine raw;
  int seen = 0;
  std::string type_seen;
  while (seen < kFormatPeekLines && reader.Next(&raw)) {
    if (!raw.too_long && IsBlank(raw.text)) continue;
    ++seen;
    if (raw.too_long) continue;
    const TranscriptFormat found = FormatOfLine(raw.text, &type_seen);
    if (found != TranscriptFormat::kUnknown) {
      *format = found;
      return Status::Ok();
    }
  }
  if (!reader.status().ok()) return reader.status();
  if (seen == 0) return Status::Ok();
  return Status::Error(path + ": unknown transcript format: the first " + std::to_string(seen) +
                       " line(s) are neither Claude Code session records nor Codex CLI rollout records (" +
                       (type_seen.empty() ? std::string("no JSON object") : "first object: " + type_seen) + ")");
}

}  // namespace causegate::evidence
