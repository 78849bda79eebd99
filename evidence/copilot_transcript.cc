#include "evidence/copilot_transcript.h"

#include <nlohmann/json.hpp>

#include "evidence/claude_line.h"
#include "evidence/json_bounds.h"
#include "evidence/limits.h"
#include "evidence/line_reader.h"
#include "evidence/utf8.h"

namespace causegate::evidence {

Status ReadCopilotFinalMessage(const std::string& path, std::string* out) {
  using nlohmann::json;
  std::unique_ptr<TranscriptFile> file;
  if (Status s = TranscriptFile::Open(path, &file); !s.ok()) return s;
  ReverseLineReader reader(std::move(file));
  RawLine raw;
  bool any_event = false;
  while (reader.Prev(&raw)) {
    if (raw.too_long || raw.text.empty() || !JsonDepthWithin(raw.text, limits::kMaxJsonDepth)) continue;
    std::string scrubbed;
    std::string_view text = raw.text;
    if (!IsValidUtf8(text)) {
      scrubbed = ScrubUtf8(text);
      text = scrubbed;
    }
    const json line = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (line.is_discarded() || !line.is_object()) continue;
    const auto type = line.find("type");
    if (type == line.end() || !type->is_string()) continue;
    any_event = true;
    if (*type == "user.message") break;
    if (*type != "assistant.message") continue;
    const auto data = line.find("data");
    if (data == line.end() || !data->is_object()) continue;
    const auto content = data->find("content");
    if (content == data->end() || !content->is_string() || content->get_ref<const std::string&>().empty()) continue;
    const std::string& message = content->get_ref<const std::string&>();
    *out = std::string(Utf8Prefix(message, limits::kMaxMessageBytes));
    return Status::Ok();
  }
  if (!reader.status().ok()) return reader.status();
  if (!any_event) return Status::Error(path + ": no Copilot session events");
  out->clear();
  return Status::Ok();
}

}  // namespace causegate::evidence
