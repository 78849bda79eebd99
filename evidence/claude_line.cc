// What one transcript line is, for turn assembly. The hard part is the real
// user prompt: Claude Code writes many `type:"user"` lines that no person
// typed (tool results, meta and compaction lines, interrupt markers, local
// command echoes, stop-hook feedback, background-task wake-ups), and a turn
// starts only at a typed prompt (research notes section 2.8; the choices
// made where the notes leave it open are listed in evidence/TRANSCRIPT.md).
//
// nlohmann::json is confined to this file: every call that can throw is
// inside a try block, parsing runs with exceptions off after a byte scan
// has bounded the nesting depth, and lines that name neither a user nor an
// assistant are dropped before they are parsed at all.
// Tests: tests/unit/evidence/claude_line_test.cc, transcript_test.cc.
#include "evidence/claude_line.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <ctime>
#include <exception>
#include <utility>

#include "evidence/json_fields.h"
#include "evidence/limits.h"
#include "evidence/utf8.h"

namespace causegate::evidence {
namespace {

using nlohmann::json;

// text with every \uD800-\uDFFF escape that is not part of a surrogate
// pair replaced by \uFFFD. JavaScript's JSON.stringify writes such escapes
// for a string cut inside a pair; nlohmann::json refuses them.
std::string ReplaceLoneSurrogates(std::string_view text) {
  auto hex4 = [&text](std::size_t at, unsigned* value) {
    if (at + 4 > text.size()) return false;
    unsigned v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      const char c = text[k];
      const unsigned d = c >= '0' && c <= '9'   ? static_cast<unsigned>(c - '0')
                         : c >= 'a' && c <= 'f' ? static_cast<unsigned>(c - 'a' + 10)
                         : c >= 'A' && c <= 'F' ? static_cast<unsigned>(c - 'A' + 10)
                                                : 16u;
      if (d == 16u) return false;
      v = v * 16 + d;
    }
    *value = v;
    return true;
  };
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '\\' || i + 1 >= text.size()) {
      out.push_back(text[i++]);
      continue;
    }
    unsigned v = 0;
    if (text[i + 1] != 'u' || !hex4(i + 2, &v)) {
      out.append(text.substr(i, 2));  // any other escape, kept whole
      i += 2;
      continue;
    }
    unsigned low = 0;
    if (v >= 0xD800 && v <= 0xDBFF && i + 12 <= text.size() && text[i + 6] == '\\' &&
        text[i + 7] == 'u' && hex4(i + 8, &low) && low >= 0xDC00 && low <= 0xDFFF) {
      out.append(text.substr(i, 12));  // a proper pair
      i += 12;
    } else if (v >= 0xD800 && v <= 0xDFFF) {
      out.append("\\ufffd");
      i += 6;
    } else {
      out.append(text.substr(i, 6));
      i += 6;
    }
  }
  return out;
}

bool ParseOnce(std::string_view text, json* out) {
  try {
    *out = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  } catch (const std::exception&) {
    return false;
  }
  return !out->is_discarded();
}

bool ParseBounded(std::string_view text, json* out) {
  if (!JsonDepthWithin(text, limits::kMaxJsonDepth)) return false;
  if (ParseOnce(text, out)) return true;
  // One bad byte or a cut surrogate pair in a tool output must not cost the
  // whole line (and the evidence in it): repair those and try once more.
  std::string repaired = ReplaceLoneSurrogates(text);
  if (!IsValidUtf8(repaired)) repaired = ScrubUtf8(repaired);
  if (repaired == text) return false;
  return ParseOnce(repaired, out);
}

bool IsTrue(const json& object, const char* key) {
  const json* v = FindField(object, key);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

std::string_view StringOf(const json* v) {
  if (v == nullptr || !v->is_string()) return {};
  return v->get_ref<const std::string&>();
}

std::string_view TypeOf(const json& block) { return StringOf(FindField(block, "type")); }

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string_view TrimLeft(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                             text[i] == '\r')) {
    ++i;
  }
  return text.substr(i);
}

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                           text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool IsBlank(std::string_view text) { return TrimLeft(text).empty(); }

// tool_result content: a string, or blocks whose text parts are joined.
std::string ResultText(const json* content) {
  if (content == nullptr) return {};
  if (content->is_string()) return content->get<std::string>();
  std::string out;
  if (!content->is_array()) return out;
  bool first = true;
  for (const json& block : *content) {
    if (TypeOf(block) != "text") continue;
    if (!first) out.push_back('\n');
    out.append(StringOf(FindField(block, "text")));
    first = false;
    if (out.size() > limits::kMaxToolOutputBytes) break;
  }
  return out;
}

// Lines a person did not type, recognised by how their text starts.
constexpr std::array<std::string_view, 9> kNotTypedPrefixes = {
    "[Request interrupted by user",  // interrupt markers
    "<local-command-caveat>",        // local slash command bookkeeping
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<bash-input>",                  // `!` shell mode: the user ran it, no agent turn
    "<bash-stdout>",
    "<bash-stderr>",
    "<task-notification>",           // a background task woke the agent up
    "<system-reminder>",             // injected context
};

constexpr std::string_view kStopFeedback = "Stop hook feedback:";

// The reason in "Stop hook feedback:\n[command]: reason". Claude Code tags
// each blocking hook's reason with its command; the tag is dropped so that
// the reason can be compared with the one the gate would send now.
std::string FeedbackReason(std::string_view text) {
  text.remove_prefix(kStopFeedback.size());
  if (StartsWith(text, "\r\n")) {
    text.remove_prefix(2);
  } else if (StartsWith(text, "\n") || StartsWith(text, " ")) {
    text.remove_prefix(1);
  }
  if (StartsWith(text, "[")) {
    const std::size_t close = text.find("]: ");
    const std::size_t eol = text.find('\n');
    if (close != std::string_view::npos && (eol == std::string_view::npos || close < eol)) {
      text.remove_prefix(close + 3);
    }
  }
  return std::string(TrimRight(text));
}

void ParseUser(const json& root, LineRecord* rec) {
  const json* message = FindField(root, "message");
  const json* content = message != nullptr ? FindField(*message, "content") : nullptr;
  if (content == nullptr) return;

  std::string text;
  bool other_blocks = false;  // images or documents pasted with the prompt
  if (content->is_string()) {
    text = content->get<std::string>();
  } else if (content->is_array()) {
    bool first = true;
    for (const json& block : *content) {
      const std::string_view type = TypeOf(block);
      if (type == "tool_result") {
        ToolResult result;
        result.tool_use_id = std::string(StringOf(FindField(block, "tool_use_id")));
        std::string output = ResultText(FindField(block, "content"));
        if (output.size() > limits::kMaxToolOutputBytes) {
          output.resize(Utf8Prefix(output, limits::kMaxToolOutputBytes).size());
        }
        result.output = std::move(output);
        result.is_error = IsTrue(block, "is_error");
        rec->results.push_back(std::move(result));
      } else if (type == "text") {
        const std::string_view part = StringOf(FindField(block, "text"));
        // Context Claude Code attaches to a prompt is not the prompt.
        if (StartsWith(TrimLeft(part), "<system-reminder>")) continue;
        if (!first) text.push_back('\n');
        text.append(part);
        first = false;
      } else if (!type.empty()) {
        other_blocks = true;
      }
    }
  } else {
    return;
  }
  if (!rec->results.empty()) {
    rec->kind = LineRecord::Kind::kToolResults;
    return;
  }
  if (FindField(root, "toolUseResult") != nullptr) return;

  const std::string_view head = TrimLeft(text);
  if (StartsWith(head, kStopFeedback)) {
    rec->kind = LineRecord::Kind::kStopFeedback;
    rec->text = FeedbackReason(head);
    return;
  }
  if (IsTrue(root, "isMeta") || IsTrue(root, "isCompactSummary") ||
      IsTrue(root, "isVisibleInTranscriptOnly")) {
    return;
  }
  for (const std::string_view prefix : kNotTypedPrefixes) {
    if (StartsWith(head, prefix)) return;
  }
  if (IsBlank(text) && !other_blocks) return;
  rec->kind = LineRecord::Kind::kPrompt;
  rec->text = std::move(text);
  rec->compaction_agent = IsCompactionAgent(StringOf(FindField(root, "agentId")));
}

// The argument people read a call by, and that classifies it.
std::string MainArgument(std::string_view name, const json& input) {
  const char* key = nullptr;
  if (name == "Bash") {
    key = "command";
  } else if (name == "Read" || name == "Write" || name == "Edit" || name == "MultiEdit") {
    key = "file_path";
  } else if (name == "NotebookEdit" || name == "NotebookRead") {
    key = "notebook_path";
  } else if (name == "Grep" || name == "Glob") {
    key = "pattern";
  } else if (name == "WebFetch") {
    key = "url";
  } else if (name == "WebSearch") {
    key = "query";
  }
  if (key == nullptr) return {};
  return std::string(StringOf(FindField(input, key)));
}

void ParseAssistant(const json& root, LineRecord* rec) {
  const json* message = FindField(root, "message");
  if (message == nullptr) return;
  rec->message_id = std::string(StringOf(FindField(*message, "id")));
  const json* content = FindField(*message, "content");
  if (content == nullptr) return;
  if (content->is_string()) {
    if (!IsBlank(content->get_ref<const std::string&>())) {
      AssistantBlock block;
      block.text = content->get<std::string>();
      rec->blocks.push_back(std::move(block));
    }
  } else if (content->is_array()) {
    for (const json& item : *content) {
      const std::string_view type = TypeOf(item);
      if (type == "text") {
        const std::string_view text = StringOf(FindField(item, "text"));
        if (IsBlank(text)) continue;  // "\n\n" blocks Claude Code writes before thinking
        AssistantBlock block;
        block.text = std::string(text);
        rec->blocks.push_back(std::move(block));
      } else if (type == "tool_use") {
        AssistantBlock block;
        block.kind = AssistantBlock::Kind::kToolUse;
        block.call.id = std::string(StringOf(FindField(item, "id")));
        block.call.name = std::string(StringOf(FindField(item, "name")));
        const json* input = FindField(item, "input");
        if (input != nullptr && !input->is_null()) {
          block.call.input = DumpJson(*input);
          block.call.command = MainArgument(block.call.name, *input);
        } else {
          block.call.input = "{}";
        }
        rec->blocks.push_back(std::move(block));
      }
      // thinking, redacted_thinking and anything new: not part of the turn
    }
  }
  if (!rec->blocks.empty()) rec->kind = LineRecord::Kind::kAssistant;
}

// The session facts every user and assistant line carries; the model only
// on assistant lines ("<synthetic>" marks messages Claude Code made itself,
// such as API errors: no model's).
void ReadFacts(const json& root, LineFacts* facts) {
  facts->session_id = std::string(StringOf(FindField(root, "sessionId")));
  facts->agent_version = std::string(StringOf(FindField(root, "version")));
  facts->timestamp = IsoTime(StringOf(FindField(root, "timestamp")));
  facts->cwd = std::string(StringOf(FindField(root, "cwd")));
  if (const json* message = FindField(root, "message"); message != nullptr) {
    const std::string_view model = StringOf(FindField(*message, "model"));
    if (!model.empty() && model.front() != '<') facts->model = std::string(model);
  }
}

// Cheap rejection of the many lines (progress, snapshots, queue and system
// records) that cannot be a user or assistant line: both types must appear
// as a quoted value. Only lines that look complete are rejected this way,
// so that a cut-off last line is still seen as unreadable.
bool MayBeMessage(std::string_view line) {
  const std::string_view trimmed = TrimRight(line);
  if (trimmed.empty() || trimmed.back() != '}') return true;
  return line.find("\"user\"") != std::string_view::npos ||
         line.find("\"assistant\"") != std::string_view::npos;
}

}  // namespace

void AbsorbFacts(const LineFacts& from, LineFacts* to) {
  if (!from.session_id.empty()) to->session_id = from.session_id;
  if (!from.agent_version.empty()) to->agent_version = from.agent_version;
  if (!from.model.empty()) to->model = from.model;
  if (!from.timestamp.empty()) to->timestamp = from.timestamp;
  if (!from.cwd.empty()) to->cwd = from.cwd;
}

std::string IsoTime(std::string_view text) {
  auto digits = [&text](std::size_t from, std::size_t n) {
    if (text.size() < from + n) return false;
    for (std::size_t i = from; i < from + n; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
    }
    return true;
  };
  // YYYY-MM-DDTHH:MM, then whatever the writer added (seconds, fraction, zone).
  if (text.size() >= 16 && text.size() <= 64 && digits(0, 4) && text[4] == '-' && digits(5, 2) && text[7] == '-' && digits(8, 2) &&
      (text[10] == 'T' || text[10] == ' ') && digits(11, 2) && text[13] == ':' && digits(14, 2)) {
    std::string out(text);
    out[10] = 'T';
    return out;
  }
  // Epoch milliseconds, as Copilot's hook input writes its time: 12 to 14 digits.
  if (text.size() >= 12 && text.size() <= 14 && digits(0, text.size())) {
    const long long ms = std::stoll(std::string(text));
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    if (gmtime_r(&seconds, &tm) == nullptr) return "";
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
    return buffer;
  }
  return "";
}

LineRecord ParseClaudeLine(std::string_view line, SessionKind kind) {
  LineRecord rec;
  if (!MayBeMessage(line)) return rec;
  json root;
  if (!ParseBounded(line, &root) || !root.is_object()) {
    rec.kind = LineRecord::Kind::kUnreadable;
    return rec;
  }
  try {
    if (kind == SessionKind::kMain && IsTrue(root, "isSidechain")) return rec;
    const std::string_view type = TypeOf(root);
    if (type == "user") {
      ParseUser(root, &rec);
    } else if (type == "assistant") {
      ParseAssistant(root, &rec);
    }
    if (type == "user" || type == "assistant") ReadFacts(root, &rec.facts);
  } catch (const std::exception&) {
    // Only allocation can throw here; treat the line as unreadable.
    rec = LineRecord();
    rec.kind = LineRecord::Kind::kUnreadable;
  }
  return rec;
}

namespace {

// Tools whose input only says what to look for: their output is the data
// found, never the agent's text shown back. Claude Code's names and the
// other agents' (as their readers give them).
bool IsSearchTool(std::string_view name) {
  return name == "Grep" || name == "Glob" || name == "LS" || name == "WebSearch" || name == "ToolSearch" ||
         name == "grep" || name == "glob" || name == "search_file_content" || name == "list_directory" ||
         name == "google_web_search" || name == "web_search";
}

// Input fields that refer to text already there, or label the call.
bool IsReferenceField(std::string_view key) {
  return key == "old_string" || key == "old_str" || key == "description";
}

}  // namespace

ToolInputText ExtractToolInputText(std::string_view name, std::string_view input_json) {
  ToolInputText out;
  json input;
  if (!ParseBounded(input_json, &input)) {
    out.all = std::string(input_json);
    if (!IsSearchTool(name)) out.supplied = out.all;
    return out;
  }
  auto append = [](std::string* to, const std::string& text) {
    if (!to->empty()) to->push_back('\n');
    to->append(text);
  };
  try {
    // Every string value, walked with an explicit stack (the input came
    // from outside; depth is bounded but recursion is still avoided).
    struct Item {
      const json* value;
      bool supplied;
    };
    std::vector<Item> stack = {{&input, !IsSearchTool(name)}};
    bool first = true;
    while (!stack.empty()) {
      const Item item = stack.back();
      stack.pop_back();
      if (item.value->is_string()) {
        const std::string& text = item.value->get_ref<const std::string&>();
        if (!first) out.all.push_back('\n');
        out.all.append(text);
        first = false;
        if (item.supplied) append(&out.supplied, text);
      } else if (item.value->is_structured()) {
        // Reversed on the stack so that values come out in order.
        std::vector<Item> children;
        for (auto it = item.value->begin(); it != item.value->end(); ++it) {
          const bool supplied = item.supplied && !(item.value->is_object() && IsReferenceField(it.key()));
          children.push_back(Item{&*it, supplied});
        }
        for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
      }
    }
  } catch (const std::exception&) {
    out.all = std::string(input_json);
    out.supplied = IsSearchTool(name) ? std::string() : out.all;
  }
  return out;
}

}  // namespace causegate::evidence
