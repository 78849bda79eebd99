#include "evidence/copilot_transcript.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <system_error>
#include <utility>

#include "evidence/claude_line.h"
#include "evidence/json_bounds.h"
#include "evidence/json_fields.h"
#include "evidence/limits.h"
#include "evidence/line_reader.h"
#include "evidence/utf8.h"

namespace causegate::evidence {
namespace {

using nlohmann::json;

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string_view TrimLeft(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  return start == std::string_view::npos ? std::string_view() : text.substr(start);
}


// A prompt without the <current_datetime>...</current_datetime> block that
// Copilot puts before the text it sends the model.
std::string_view WithoutDatetime(std::string_view text) {
  text = TrimLeft(text);
  constexpr std::string_view kOpen = "<current_datetime>";
  constexpr std::string_view kClose = "</current_datetime>";
  if (!StartsWith(text, kOpen)) return text;
  const std::size_t end = text.find(kClose);
  if (end == std::string_view::npos) return text;
  return TrimLeft(text.substr(end + kClose.size()));
}

// Copilot's tool and its arguments as Claude Code names them.
void CanonicalTool(std::string_view name, json* args, std::string* canonical) {
  auto rename = [args](const char* from, const char* to) {
    if (args->contains(from) && !args->contains(to)) {
      (*args)[to] = (*args)[from];
      args->erase(from);
    }
  };
  *canonical = std::string(name);
  if (name == "bash" || name == "shell" || name == "powershell") {
    *canonical = "Bash";
    return;
  }
  if (name == "view" || name == "read") {
    *canonical = "Read";
  } else if (name == "create") {
    *canonical = "Write";
    rename("file_text", "content");
  } else if (name == "edit" || name == "str_replace") {
    *canonical = "Edit";
    rename("old_str", "old_string");
    rename("new_str", "new_string");
  } else {
    return;
  }
  rename("path", "file_path");
}

std::string MainArgument(const json& args) {
  for (const char* key : {"command", "file_path", "path", "pattern", "query", "url"}) {
    std::string value = StringField(args, key);
    if (!value.empty()) return value;
  }
  return "";
}

ToolCall ReadToolRequest(const json& request) {
  ToolCall call;
  call.id = StringField(request, "toolCallId");
  json args = json::object();
  if (const json* a = FindField(request, "arguments"); a != nullptr) {
    if (a->is_object()) {
      args = *a;
    } else if (a->is_string()) {  // arguments as JSON text
      json parsed = json::parse(a->get<std::string>(), nullptr, /*allow_exceptions=*/false);
      args = parsed.is_object() ? parsed : json{{"input", a->get<std::string>()}};
    }
  }
  CanonicalTool(StringField(request, "name"), &args, &call.name);
  call.input = DumpJson(args);
  call.command = MainArgument(args);
  return call;
}

// "<shellId: N completed with exit code M>" at the end of a shell result:
// removed, *exit_code set from M.
void StripShellTrailer(std::string* output, int* exit_code) {
  constexpr std::string_view kOpen = "<shellId: ";
  constexpr std::string_view kCode = " with exit code ";
  std::size_t end = output->size();
  while (end > 0 && ((*output)[end - 1] == '\n' || (*output)[end - 1] == '\r')) --end;
  if (end == 0 || (*output)[end - 1] != '>') return;
  const std::size_t start = output->rfind(kOpen, end);
  if (start == std::string::npos || (start > 0 && (*output)[start - 1] != '\n')) return;
  const std::string_view tag = std::string_view(*output).substr(start, end - start);
  const std::size_t code_at = tag.find(kCode);
  if (code_at == std::string_view::npos) return;
  const std::string_view digits = tag.substr(code_at + kCode.size(), tag.size() - code_at - kCode.size() - 1);
  int code = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), code);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return;
  *exit_code = code;
  std::size_t cut = start;
  while (cut > 0 && ((*output)[cut - 1] == '\n' || (*output)[cut - 1] == '\r')) --cut;
  output->resize(cut);
}

ToolResult ReadExecutionComplete(const json& data) {
  ToolResult result;
  result.tool_use_id = StringField(data, "toolCallId");
  const json* res = FindField(data, "result");
  if (res != nullptr && res->is_object()) {
    const json* content = FindField(*res, "content");
    if (content != nullptr) result.output = content->is_string() ? content->get<std::string>() : DumpJson(*content);
  } else if (res != nullptr && res->is_string()) {
    result.output = res->get<std::string>();
  }
  if (result.output.empty()) {
    if (const json* error = FindField(data, "error"); error != nullptr) {
      result.output = error->is_string() ? error->get<std::string>() : StringField(*error, "message");
      result.is_error = true;
    }
  }
  if (const json* success = FindField(data, "success"); success != nullptr && success->is_boolean()) {
    result.is_error = result.is_error || !success->get<bool>();
  }
  int exit_code = 0;
  for (const json* holder : {&data, res}) {
    if (holder == nullptr) continue;
    const json* shell = FindField(*holder, "shellExecution");
    const json* code = shell != nullptr ? FindField(*shell, "exitCode") : nullptr;
    if (code != nullptr && code->is_number_integer()) exit_code = code->get<int>();
  }
  StripShellTrailer(&result.output, &exit_code);
  if (exit_code != 0) result.is_error = true;
  if (result.output.size() > limits::kMaxToolOutputBytes) {
    result.output.resize(Utf8Prefix(result.output, limits::kMaxToolOutputBytes).size());
  }
  return result;
}

// session.start: sessionId, copilotVersion, context.cwd; the model from
// session.model_change's newModel or any event's data.model (the usage
// and tool events name it).
void ReadFacts(const json& event, std::string_view type, const json& data, LineFacts* facts) {
  const json* time = FindField(event, "timestamp");
  if (time != nullptr && time->is_number_integer()) {
    facts->timestamp = IsoTime(std::to_string(time->get<std::int64_t>()));
  } else {
    facts->timestamp = IsoTime(StringField(event, "timestamp"));
  }
  if (type == "session.start" || type == "session.resume") {
    facts->session_id = StringField(data, "sessionId");
    facts->agent_version = StringField(data, "copilotVersion");
    const json* context = FindField(data, "context");
    facts->cwd = context != nullptr ? StringField(*context, "cwd") : std::string();
    if (facts->cwd.empty()) facts->cwd = StringField(data, "cwd");
  }
  facts->model = type == "session.model_change" ? StringField(data, "newModel") : StringField(data, "model");
  if (facts->model.empty()) facts->model = StringField(data, "selectedModel");
}

}  // namespace

LineRecord ParseCopilotEventLine(std::string_view line) {
  LineRecord rec;
  if (line.size() > limits::kMaxTranscriptLineBytes || !JsonDepthWithin(line, limits::kMaxJsonDepth)) {
    rec.kind = LineRecord::Kind::kUnreadable;
    return rec;
  }
  std::string scrubbed;
  if (!IsValidUtf8(line)) {
    scrubbed = ScrubUtf8(line);
    line = scrubbed;
  }
  const json event = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (event.is_discarded() || !event.is_object()) {
    rec.kind = LineRecord::Kind::kUnreadable;
    return rec;
  }
  const std::string type = StringField(event, "type");
  const json* data = FindField(event, "data");
  if (data == nullptr || !data->is_object()) return rec;
  ReadFacts(event, type, *data, &rec.facts);
  if (type == "user.message") {
    const std::string content = StringField(*data, "content");
    const std::string_view text = WithoutDatetime(content);
    if (StartsWith(text, "causegate")) {
      rec.kind = LineRecord::Kind::kStopFeedback;
      rec.text = std::string(text);
      return rec;
    }
    rec.kind = LineRecord::Kind::kPrompt;
    rec.text = std::string(text);
    return rec;
  }
  if (type == "assistant.message") {
    rec.message_id = StringField(*data, "messageId");
    const std::string content = StringField(*data, "content");
    if (content.find_first_not_of(" \t\r\n") != std::string::npos) {
      AssistantBlock block;
      block.text = content;
      rec.blocks.push_back(std::move(block));
    }
    if (const json* requests = FindField(*data, "toolRequests"); requests != nullptr && requests->is_array()) {
      for (const json& request : *requests) {
        if (!request.is_object()) continue;
        AssistantBlock block;
        block.kind = AssistantBlock::Kind::kToolUse;
        block.call = ReadToolRequest(request);
        rec.blocks.push_back(std::move(block));
      }
    }
    if (!rec.blocks.empty()) rec.kind = LineRecord::Kind::kAssistant;
    return rec;
  }
  if (type == "tool.execution_complete") {
    rec.results.push_back(ReadExecutionComplete(*data));
    rec.kind = LineRecord::Kind::kToolResults;
  }
  return rec;
}

namespace {

// One events.jsonl line as JSON, or discarded when it is not a readable event.
json ParseEvent(const RawLine& raw) {
  if (raw.too_long || raw.text.empty() || !JsonDepthWithin(raw.text, limits::kMaxJsonDepth)) return json::value_t::discarded;
  if (IsValidUtf8(raw.text)) return json::parse(raw.text, nullptr, /*allow_exceptions=*/false);
  return json::parse(ScrubUtf8(raw.text), nullptr, /*allow_exceptions=*/false);
}

std::string_view EventType(const json& line) {
  if (!line.is_object()) return "";
  const auto type = line.find("type");
  return type != line.end() && type->is_string() ? std::string_view(type->get_ref<const std::string&>()) : "";
}

// A user.message that is the gate's reason coming back (see the header).
bool IsFeedbackMessage(const json& line) {
  const auto data = line.find("data");
  if (data == line.end() || !data->is_object()) return false;
  const auto content = data->find("content");
  return content != data->end() && content->is_string() &&
         StartsWith(WithoutDatetime(content->get_ref<const std::string&>()), "causegate");
}

// Reads on backwards from the answer: the gate's reasons since the user's
// own prompt, to tell the answer to the last block from a stale one.
Status CountFeedbackSincePrompt(ReverseLineReader* reader, int* count) {
  RawLine raw;
  while (reader->Prev(&raw)) {
    const json line = ParseEvent(raw);
    if (EventType(line) != "user.message") continue;
    if (!IsFeedbackMessage(line)) return Status::Ok();
    ++*count;
  }
  return reader->status();
}

}  // namespace

Status ReadCopilotFinalMessage(const std::string& path, CopilotFinalMessage* out) {
  std::unique_ptr<TranscriptFile> file;
  if (Status s = TranscriptFile::Open(path, &file); !s.ok()) return s;
  ReverseLineReader reader(std::move(file));
  RawLine raw;
  bool any_event = false;
  bool tools_after = false;  // a later assistant.message asked for tools
  while (reader.Prev(&raw)) {
    const json line = ParseEvent(raw);
    const std::string_view type = EventType(line);
    if (type.empty()) continue;
    any_event = true;
    if (type == "user.message") break;
    if (type != "assistant.message") continue;
    const auto data = line.find("data");
    if (data == line.end() || !data->is_object()) continue;
    const auto requests = data->find("toolRequests");
    const bool asks_tools = requests != data->end() && requests->is_array() && !requests->empty();
    const auto content = data->find("content");
    if (content == data->end() || !content->is_string() || content->get_ref<const std::string&>().empty()) {
      tools_after = tools_after || asks_tools;
      continue;
    }
    const std::string& message = content->get_ref<const std::string&>();
    out->text = std::string(Utf8Prefix(message, limits::kMaxMessageBytes));
    out->answered = !asks_tools && !tools_after;
    out->feedback_since_prompt = 0;
    return CountFeedbackSincePrompt(&reader, &out->feedback_since_prompt);
  }
  if (!reader.status().ok()) return reader.status();
  if (!any_event) return Status::Error(path + ": no Copilot session events");
  *out = CopilotFinalMessage();
  return Status::Ok();
}

}  // namespace causegate::evidence
