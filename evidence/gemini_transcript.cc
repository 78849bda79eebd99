// Gemini CLI chat files into turns. Gemini keeps a session as a list of
// messages, each a user or a model ("gemini") message with its tool calls
// and their results inside it, so unlike Claude Code there is nothing to
// pair: a turn is a user message and the messages up to the next one.
//
// The file is read whole: the older format is one JSON document that
// Gemini rewrites in place, and the newer JSONL form may repeat a message
// id to update it, so neither can be read from the end with confidence.
// Chat files stay far smaller than Claude Code sessions (no tool-result
// spill), and the read is bounded by limits::kMaxChatFileBytes.
// Tests: tests/unit/evidence/gemini_transcript_test.cc.
#include "evidence/gemini_transcript.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <optional>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "evidence/claude_line.h"
#include "evidence/json_bounds.h"
#include "evidence/json_fields.h"
#include "evidence/limits.h"
#include "evidence/line_reader.h"
#include "evidence/transcript.h"
#include "evidence/utf8.h"

namespace causegate::evidence {
namespace {

using nlohmann::json;


// content: a string, a part {text}, or a list of parts; thought parts are
// the model's thinking and are not its message.
std::string ContentText(const json* content) {
  if (content == nullptr) return "";
  if (content->is_string()) return content->get<std::string>();
  std::string out;
  auto add_part = [&out](const json& part) {
    if (part.is_string()) {
      out += part.get<std::string>();
      return;
    }
    const json* thought = FindField(part, "thought");
    if (thought != nullptr && thought->is_boolean() && thought->get<bool>()) return;
    out += StringField(part, "text");
  };
  if (content->is_array()) {
    for (const json& part : *content) add_part(part);
  } else if (content->is_object()) {
    add_part(*content);
  }
  return out;
}

bool IsBlank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::string Bounded(std::string text, std::size_t max_bytes) {
  if (text.size() > max_bytes) text.resize(Utf8Prefix(text, max_bytes).size());
  return text;
}

// Gemini's tool names as Claude Code names them, where one means the same.
const char* ClaudeName(std::string_view name) {
  if (name == "read_file") return "Read";
  if (name == "write_file") return "Write";
  if (name == "replace" || name == "edit") return "Edit";
  return nullptr;
}

std::string MainArgument(const json& args) {
  for (const char* key : {"command", "file_path", "absolute_path", "path", "pattern", "url", "query", "dir_path"}) {
    std::string value = StringField(args, key);
    if (!value.empty()) return value;
  }
  return "";
}

// The text of a functionResponse.response: its output, else its error.
std::string ResponseText(const json& response, bool* is_error) {
  if (!response.is_object()) return response.is_string() ? response.get<std::string>() : DumpJson(response);
  if (const json* output = FindField(response, "output"); output != nullptr && !output->is_null()) {
    return output->is_string() ? output->get<std::string>() : DumpJson(*output);
  }
  if (const json* error = FindField(response, "error"); error != nullptr && !error->is_null()) {
    *is_error = true;
    return error->is_string() ? error->get<std::string>() : DumpJson(*error);
  }
  return DumpJson(response);
}

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string_view TrimNewlines(std::string_view text) {
  while (!text.empty() && (text.front() == '\n' || text.front() == '\r')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// <untrusted_context>...</untrusted_context> around a tool's output: Gemini's
// marking of outside text for the model, not the tool's.
std::string_view Unwrapped(std::string_view text) {
  constexpr std::string_view kOpen = "<untrusted_context>";
  constexpr std::string_view kClose = "</untrusted_context>";
  std::string_view inner = TrimNewlines(text);
  if (!StartsWith(inner, kOpen)) return text;
  inner.remove_prefix(kOpen.size());
  inner = TrimNewlines(inner);
  if (inner.size() >= kClose.size() && inner.substr(inner.size() - kClose.size()) == kClose) {
    inner.remove_suffix(kClose.size());
  }
  return TrimNewlines(inner);
}

// A line Gemini's shell tool adds around what the command printed:
// "Process Group PGID: N", and in older versions "Command: ", "Directory: ",
// "Error: (none)", "Exit Code: N", "Signal: (none)", "Background PIDs: ...".
// *exit_code is set from "Exit Code: N".
bool IsShellBookkeeping(std::string_view line, int* exit_code) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  for (const std::string_view key : {"Process Group PGID: ", "Background PIDs: ", "Directory: ", "Command: "}) {
    if (StartsWith(line, key)) return true;
  }
  for (const std::string_view key : {"Error: ", "Signal: "}) {
    if (StartsWith(line, key) && line.substr(key.size()) == "(none)") return true;
  }
  constexpr std::string_view kExit = "Exit Code: ";
  if (StartsWith(line, kExit)) {
    const std::string_view value = line.substr(kExit.size());
    int code = 0;
    if (value == "(none)") return true;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), code);
    if (ec == std::errc() && end == value.data() + value.size()) {
      *exit_code = code;
      return true;
    }
  }
  return false;
}

// What a run_shell_command printed, without Gemini's frame: a leading
// "Output: " and the bookkeeping lines before and after it. Only a text in
// that frame (starting "Output: " or "Command: ") is touched, so a command
// whose own output has such a line keeps it.
std::string ShellOutput(std::string_view text, bool* is_error) {
  if (!StartsWith(text, "Output: ") && !StartsWith(text, "Output:\n") && !StartsWith(text, "Command: ")) {
    return std::string(text);
  }
  int exit_code = 0;
  // Leading bookkeeping (Command, Directory) up to the "Output:" line.
  while (!StartsWith(text, "Output:")) {
    const std::size_t eol = text.find('\n');
    if (eol == std::string_view::npos || !IsShellBookkeeping(text.substr(0, eol), &exit_code)) break;
    text.remove_prefix(eol + 1);
  }
  if (StartsWith(text, "Output: ")) {
    text.remove_prefix(8);
  } else if (StartsWith(text, "Output:\n")) {
    text.remove_prefix(8);
  }
  // Trailing bookkeeping, last line first.
  text = TrimNewlines(text);
  while (!text.empty()) {
    const std::size_t eol = text.rfind('\n');
    const std::string_view last = eol == std::string_view::npos ? text : text.substr(eol + 1);
    if (!IsShellBookkeeping(last, &exit_code)) break;
    text = eol == std::string_view::npos ? std::string_view() : TrimNewlines(text.substr(0, eol));
  }
  if (exit_code != 0) *is_error = true;
  if (text == "(empty)") text = {};
  return std::string(text);
}

// A tool's output as the tool printed it (evidence/TRANSCRIPT.md, Gemini).
std::string ToolOutputText(std::string_view name, std::string_view text, bool* is_error) {
  text = Unwrapped(text);
  return name == "run_shell_command" ? ShellOutput(text, is_error) : std::string(text);
}

ToolCall ReadToolCall(const json& tc, std::int64_t line) {
  ToolCall call;
  call.id = StringField(tc, "id");
  const std::string name = StringField(tc, "name");
  const char* claude = ClaudeName(name);
  call.name = claude != nullptr ? claude : name;
  const json* args = FindField(tc, "args");
  if (args != nullptr && args->is_object()) {
    call.input = DumpJson(*args);
    call.command = MainArgument(*args);
  } else {
    call.input = "{}";
  }
  call.line = line;
  call.is_error = StringField(tc, "status") == "error";
  std::string output;
  if (const json* result = FindField(tc, "result"); result != nullptr && !result->is_null()) {
    call.has_result = true;
    const json& parts = *result;
    auto add = [&](const json& part) {
      const json* fr = FindField(part, "functionResponse");
      const json* response = fr != nullptr ? FindField(*fr, "response") : nullptr;
      if (response == nullptr) return;
      if (!output.empty()) output.push_back('\n');
      output += ResponseText(*response, &call.is_error);
    };
    if (parts.is_array()) {
      for (const json& part : parts) add(part);
    } else if (parts.is_string()) {
      output = parts.get<std::string>();
    } else {
      add(parts);
    }
  }
  if (output.empty()) {
    // resultDisplay is what the user saw; text when the tool printed text.
    const json* display = FindField(tc, "resultDisplay");
    if (display != nullptr && display->is_string()) {
      output = display->get<std::string>();
      call.has_result = true;
    }
  }
  call.output = Bounded(ToolOutputText(name, output, &call.is_error), limits::kMaxToolOutputBytes);
  return call;
}

struct Message {
  json body;
  std::int64_t line = 0;  // JSONL line of its last version; 0 in the document form
};

class TurnAssembler {
 public:
  TurnAssembler(const ChatReadOptions& options, std::string session_id)
      : options_(options), session_id_(std::move(session_id)) {}

  void Add(const Message& m) {
    const std::string type = StringField(m.body, "type");
    if (type == "user") {
      const std::string text = ContentText(FindField(m.body, "content"));
      if (current_ && options_.is_feedback && options_.is_feedback(text)) {
        current_->turn.stop_feedback.push_back(text);
        current_->before_last_feedback.clear();
        for (const auto& [model_text, line] : current_->texts) current_->before_last_feedback.push_back(model_text);
        return;
      }
      if (IsBlank(text)) return;
      Finish();
      current_.emplace();
      current_->turn.prompt = text;
      current_->turn.prompt_line = m.line;
      current_->turn.context.session_id = session_id_;
      current_->turn.context.model = model_;
      current_->turn.context.started_at = IsoTime(StringField(m.body, "timestamp"));
      return;
    }
    if (type == "gemini") {
      if (std::string model = StringField(m.body, "model"); !model.empty()) {
        model_ = std::move(model);
        if (current_) current_->turn.context.model = model_;
      }
    }
    if (type != "gemini" || !current_) return;  // info, error, warning: not the agent's words
    const std::string text = ContentText(FindField(m.body, "content"));
    if (!IsBlank(text)) current_->texts.push_back({text, m.line});
    if (const json* calls = FindField(m.body, "toolCalls"); calls != nullptr && calls->is_array()) {
      for (const json& tc : *calls) {
        if (!tc.is_object()) continue;
        current_->turn.tool_calls.push_back(ReadToolCall(tc, m.line));
        if (current_->turn.tool_calls.size() > limits::kMaxToolCallsPerTurn) {
          current_->turn.tool_calls.erase(current_->turn.tool_calls.begin());
        }
      }
    }
  }

  // Ends the open turn, if any.
  void Finish() {
    if (!current_) return;
    Turn& turn = current_->turn;
    auto& texts = current_->texts;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      if (i + 1 < texts.size()) {
        turn.narration.push_back(std::move(texts[i].first));
      } else {
        turn.final_message = Bounded(std::move(texts[i].first), limits::kMaxMessageBytes);
        turn.final_line = texts[i].second;
      }
    }
    turns_.push_back(std::move(turn));
    last_before_feedback_ = std::move(current_->before_last_feedback);
    current_.reset();
  }

  std::vector<Turn>& turns() { return turns_; }
  // ChatRetries::before_last_feedback of the last turn finished.
  std::vector<std::string>& last_before_feedback() { return last_before_feedback_; }

 private:
  struct Open {
    Turn turn;
    std::vector<std::pair<std::string, std::int64_t>> texts;  // model texts in order
    std::vector<std::string> before_last_feedback;
  };
  const ChatReadOptions& options_;
  std::string session_id_;  // the file's header
  std::string model_;       // the last model named
  std::optional<Open> current_;
  std::vector<Turn> turns_;
  std::vector<std::string> last_before_feedback_;
};

// Earlier turns, already read; handed out newest first.
class ChatHistory final : public History {
 public:
  explicit ChatHistory(std::vector<Turn> older) : older_(std::move(older)) {}
  bool LoadOlder(PastTurn* out) override {
    if (older_.empty()) return false;
    ++turns_back_;
    Turn& t = older_.back();
    out->prompt = std::move(t.prompt);
    out->tool_calls = std::move(t.tool_calls);
    for (ToolCall& call : out->tool_calls) call.turns_back = turns_back_;
    out->turns_back = turns_back_;
    older_.pop_back();
    return true;
  }

 private:
  std::vector<Turn> older_;  // oldest first
  int turns_back_ = 0;
};

json ParseBounded(std::string_view text) {
  if (!JsonDepthWithin(text, limits::kMaxJsonDepth)) return json(json::value_t::discarded);
  return json::parse(text, nullptr, /*allow_exceptions=*/false);
}

// The JSONL form: messages by id, last version wins, first position kept.
// *session_id: the header line's sessionId.
std::vector<Message> ReadJsonl(std::string_view text, bool* last_line_unreadable, std::string* session_id) {
  std::vector<Message> messages;
  std::unordered_map<std::string, std::size_t> by_id;
  std::int64_t number = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (IsBlank(line)) continue;
    json v = line.size() > limits::kMaxTranscriptLineBytes ? json(json::value_t::discarded) : ParseBounded(line);
    *last_line_unreadable = v.is_discarded() || !v.is_object();
    if (!*last_line_unreadable && !v.contains("type") && session_id->empty()) *session_id = StringField(v, "sessionId");
    if (*last_line_unreadable || !v.contains("type")) continue;  // header, "$set" updates
    const std::string id = StringField(v, "id");
    if (!id.empty()) {
      const auto [it, added] = by_id.try_emplace(id, messages.size());
      if (!added) {
        messages[it->second] = Message{std::move(v), number};
        continue;
      }
    }
    messages.push_back(Message{std::move(v), number});
  }
  return messages;
}

}  // namespace

namespace {

// Every turn of the file, oldest first.
Status ReadTurns(const std::string& path, const ChatReadOptions& options, std::vector<Turn>* turns,
                 ChatRetries* retries) {
  std::unique_ptr<TranscriptFile> file;
  if (Status s = TranscriptFile::Open(path, &file); !s.ok()) return s;
  if (static_cast<std::uint64_t>(file->size()) > limits::kMaxChatFileBytes) {
    return Status::Error(path + ": chat file larger than " + std::to_string(limits::kMaxChatFileBytes) + " bytes");
  }
  std::string text(static_cast<std::size_t>(file->size()), '\0');
  if (Status s = file->ReadAt(0, text.size(), text.data()); !s.ok()) return s;
  if (!IsValidUtf8(text) || text.find('\0') != std::string::npos) text = ScrubUtf8(text);

  std::vector<Message> messages;
  bool last_line_unreadable = false;
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] != '{') {
    return Status::Error(path + ": not a Gemini chat file (neither a JSON document nor JSONL)");
  }
  json doc = ParseBounded(text);
  std::string session_id;
  if (!doc.is_discarded() && doc.is_object() && FindField(doc, "messages") != nullptr) {
    session_id = StringField(doc, "sessionId");
    const json& list = doc["messages"];
    if (!list.is_array()) return Status::Error(path + ": \"messages\" is not a list");
    for (const json& m : list) {
      if (m.is_object()) messages.push_back(Message{m, 0});
    }
  } else {
    doc = json();
    messages = ReadJsonl(text, &last_line_unreadable, &session_id);
  }

  TurnAssembler assembler(options, session_id);
  for (const Message& m : messages) assembler.Add(m);
  assembler.Finish();
  *turns = std::move(assembler.turns());
  if (turns->empty()) return NoPromptError(path);
  turns->back().truncated = last_line_unreadable;
  if (retries != nullptr) retries->before_last_feedback = std::move(assembler.last_before_feedback());
  return Status::Ok();
}

}  // namespace

Status ReadGeminiLastTurn(const std::string& path, const ChatReadOptions& options, LastTurn* out,
                          ChatRetries* retries) {
  std::vector<Turn> turns;
  if (Status s = ReadTurns(path, options, &turns, retries); !s.ok()) return s;
  out->turn = std::move(turns.back());
  turns.pop_back();
  out->history = std::make_unique<ChatHistory>(std::move(turns));
  return Status::Ok();
}

Status ForEachGeminiTurn(const std::string& path, const ChatReadOptions& options,
                         const std::function<bool(Turn&, int index)>& visit) {
  std::vector<Turn> turns;
  if (Status s = ReadTurns(path, options, &turns, nullptr); !s.ok()) return s;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    if (!visit(turns[i], static_cast<int>(i))) break;
  }
  return Status::Ok();
}

}  // namespace causegate::evidence
