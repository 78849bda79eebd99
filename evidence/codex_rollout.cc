// Codex CLI rollout lines into LineRecords (the line kinds and fields are
// listed in codex_rollout.h). Parsed with simdjson (simd_json.h): rollouts
// hold tool output in function_call_output lines, often as JSON text inside
// a JSON string, and every line is read when a whole file is checked.
//
// Two things differ from Claude Code and are settled here rather than in
// the turn assembly: the typed prompt is an event line, not a user message
// (the user message beside it is its echo, next to injected context), and
// the final message is given outright by task_complete, which is added as
// the turn's last assistant text so that it wins over the narration before
// it. A hook's continuation prompt comes back as a user message wrapped in
// <hook_prompt>, which is the rollout's stop feedback.
// Tests: tests/unit/evidence/codex_rollout_test.cc.
#include "evidence/codex_rollout.h"

#include <utf8proc.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "evidence/limits.h"
#include "evidence/simd_json.h"
#include "evidence/utf8.h"

namespace causegate::evidence {
namespace {

using simd::Element;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool Parse(std::string_view text, Element* root) {
  if (simd::Parse(text, root)) return true;
  if (IsValidUtf8(text)) return false;
  // A bad byte must not cost the line (and the tool output in it).
  const std::string scrubbed = ScrubUtf8(text);
  return simd::Parse(scrubbed, root);
}

void CutOutput(std::string* output) {
  if (output->size() > limits::kMaxToolOutputBytes) {
    output->resize(Utf8Prefix(*output, limits::kMaxToolOutputBytes).size());
  }
}

// Text parts of a content array ({"type": "input_text"|"output_text"|"text",
// "text": ...}), each passed to add.
template <typename Add>
void ForEachText(Element content, Add add) {
  simdjson::dom::array items;
  if (content.get_array().get(items) != simdjson::SUCCESS) return;
  for (const Element item : items) {
    const std::string_view type = simd::StringField(item, "type");
    if (type == "input_text" || type == "output_text" || type == "text") add(simd::StringField(item, "text"));
  }
}

std::string JoinedText(Element content) {
  std::string out;
  bool first = true;
  ForEachText(content, [&](std::string_view text) {
    if (out.size() > limits::kMaxToolOutputBytes) return;
    if (!first) out.push_back('\n');
    out.append(text);
    first = false;
  });
  return out;
}

std::string JsonQuote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out.push_back(kHex[(c >> 4) & 0xF]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

// Injected context Codex sends as a user message: AGENTS.md, and blocks
// wrapped in one tag (<environment_context>, <user_instructions>, ...).
bool IsInjectedContext(std::string_view text) {
  text = Trim(text);
  if (StartsWith(text, "# AGENTS.md instructions")) return true;
  if (!StartsWith(text, "<")) return false;
  std::size_t end = 1;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
                               text[end] == '-')) {
    ++end;
  }
  if (end == 1) return false;
  const std::string close = "</" + std::string(text.substr(1, end - 1)) + ">";
  return EndsWith(text, close);
}

bool IsShellLauncher(std::string_view word) {
  const std::size_t slash = word.rfind('/');
  if (slash != std::string_view::npos) word.remove_prefix(slash + 1);
  return word == "bash" || word == "sh" || word == "zsh" || word == "dash";
}

bool NeedsQuotes(std::string_view word) {
  if (word.empty()) return true;
  for (const char c : word) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/' ||
          c == '=' || c == ':' || c == ',' || c == '+' || c == '@' || c == '%')) {
      return true;
    }
  }
  return false;
}

// A command given as argv: the script of `bash -lc SCRIPT`, else the words
// joined into a command line (quoted where the shell would need it).
std::string CommandLine(Element argv) {
  simdjson::dom::array words;
  if (argv.get_array().get(words) != simdjson::SUCCESS) return {};
  std::vector<std::string_view> parts;
  for (const Element word : words) {
    std::string_view text;
    if (word.get_string().get(text) == simdjson::SUCCESS) parts.push_back(text);
  }
  if (parts.size() >= 3 && IsShellLauncher(parts[0]) && StartsWith(parts[1], "-") && EndsWith(parts[1], "c")) {
    return std::string(parts[2]);
  }
  std::string line;
  for (const std::string_view part : parts) {
    if (!line.empty()) line.push_back(' ');
    if (!NeedsQuotes(part)) {
      line.append(part);
      continue;
    }
    line.push_back('\'');
    for (const char c : part) {
      if (c == '\'') {
        line += "'\\''";
      } else {
        line.push_back(c);
      }
    }
    line.push_back('\'');
  }
  return line;
}

// The argument people read a call by: the shell command, else a path,
// pattern, query or url.
std::string MainArgument(Element arguments) {
  Element command;
  if (simd::Field(arguments, "command", &command)) {
    std::string_view text;
    if (command.get_string().get(text) == simdjson::SUCCESS) return std::string(text);
    return CommandLine(command);
  }
  for (const char* key : {"cmd", "path", "file_path", "pattern", "query", "url"}) {
    const std::string_view text = simd::StringField(arguments, key);
    if (!text.empty()) return std::string(text);
  }
  return {};
}

std::string ToolName(std::string_view name) {
  if (name == "shell_command" || name == "container.exec") return "shell";
  return std::string(name);
}

std::string CallId(Element payload) {
  std::string_view id = simd::StringField(payload, "call_id");
  if (id.empty()) id = simd::StringField(payload, "id");
  return std::string(id);
}

void AddCall(ToolCall call, LineRecord* rec) {
  AssistantBlock block;
  block.kind = AssistantBlock::Kind::kToolUse;
  block.call = std::move(call);
  rec->blocks.push_back(std::move(block));
  rec->kind = LineRecord::Kind::kAssistant;
}

// function_call: arguments is JSON text in a string (an object in some
// writers). Copies what it needs before parsing the arguments, which
// reuses the thread's parser and so ends the life of `payload`.
void ParseFunctionCall(Element payload, LineRecord* rec) {
  ToolCall call;
  call.id = CallId(payload);
  call.name = ToolName(simd::StringField(payload, "name"));
  Element arguments;
  if (simd::Field(payload, "arguments", &arguments)) {
    std::string_view text;
    call.input = arguments.get_string().get(text) == simdjson::SUCCESS ? std::string(text)
                                                                        : simdjson::minify(arguments);
  }
  if (call.input.empty()) call.input = "{}";
  Element parsed;
  if (Parse(call.input, &parsed)) call.command = MainArgument(parsed);
  AddCall(std::move(call), rec);
}

void ParseCustomToolCall(Element payload, LineRecord* rec) {
  ToolCall call;
  call.id = CallId(payload);
  call.name = ToolName(simd::StringField(payload, "name"));
  call.input = "{\"input\":" + JsonQuote(simd::StringField(payload, "input")) + "}";
  AddCall(std::move(call), rec);
}

void ParseLocalShellCall(Element payload, LineRecord* rec) {
  ToolCall call;
  call.id = CallId(payload);
  call.name = "local_shell";
  Element action;
  if (simd::Field(payload, "action", &action)) {
    call.input = simdjson::minify(action);
    Element argv;
    if (simd::Field(action, "command", &argv)) call.command = CommandLine(argv);
  } else {
    call.input = "{}";
  }
  AddCall(std::move(call), rec);
}

// "Exit code: N" at the start of the plain-text shell output of newer
// Codex versions; true with *code set when present.
bool ExitCodeLine(std::string_view text, int* code) {
  constexpr std::string_view kPrefix = "Exit code: ";
  if (!StartsWith(text, kPrefix)) return false;
  text.remove_prefix(kPrefix.size());
  return std::from_chars(text.data(), text.data() + text.size(), *code).ec == std::errc();
}

// The older form of a shell result: {"output": "...", "metadata":
// {"exit_code": N, ...}} as JSON text. False when text is not that.
bool UnwrapLegacyOutput(const std::string& text, std::string* output, bool* is_error) {
  if (!StartsWith(Trim(text), "{")) return false;
  Element root;
  Element metadata;
  Element inner;
  std::string_view inner_text;
  if (!Parse(text, &root) || !simd::Field(root, "metadata", &metadata) || !metadata.is_object() ||
      !simd::Field(root, "output", &inner) || inner.get_string().get(inner_text) != simdjson::SUCCESS) {
    return false;
  }
  Element exit_code;
  std::int64_t code = 0;
  if (simd::Field(metadata, "exit_code", &exit_code) && exit_code.get_int64().get(code) == simdjson::SUCCESS) {
    *is_error = code != 0;
  }
  *output = std::string(inner_text);
  return true;
}

void ParseCallOutput(Element payload, LineRecord* rec) {
  ToolResult result;
  result.tool_use_id = CallId(payload);
  Element output;
  if (simd::Field(payload, "output", &output)) {
    std::string_view text;
    Element content;
    if (output.get_string().get(text) == simdjson::SUCCESS) {
      result.output = std::string(text);
    } else if (output.is_array()) {
      result.output = JoinedText(output);
    } else if (simd::Field(output, "content", &content)) {
      result.output = content.is_string() ? std::string(simd::StringField(output, "content")) : JoinedText(content);
      Element success;
      bool ok = true;
      if (simd::Field(output, "success", &success) && success.get_bool().get(ok) == simdjson::SUCCESS) {
        result.is_error = !ok;
      }
    }
  }
  // From here on `payload` may be gone: the legacy form is parsed again.
  std::string unwrapped;
  bool legacy_error = false;
  if (UnwrapLegacyOutput(result.output, &unwrapped, &legacy_error)) {
    result.output = std::move(unwrapped);
    result.is_error = result.is_error || legacy_error;
  }
  int code = 0;
  if (ExitCodeLine(result.output, &code)) result.is_error = result.is_error || code != 0;
  CutOutput(&result.output);
  rec->results.push_back(std::move(result));
  rec->kind = LineRecord::Kind::kToolResults;
}

void ParseMessage(Element payload, CodexPrompts prompts, LineRecord* rec) {
  const std::string_view role = simd::StringField(payload, "role");
  Element content;
  if (!simd::Field(payload, "content", &content)) return;
  if (role == "assistant") {
    ForEachText(content, [rec](std::string_view text) {
      if (Trim(text).empty()) return;
      AssistantBlock block;
      block.text = std::string(text);
      rec->blocks.push_back(std::move(block));
    });
    if (!rec->blocks.empty()) rec->kind = LineRecord::Kind::kAssistant;
    return;
  }
  if (role != "user") return;  // developer and system messages are instructions
  std::vector<std::string> reasons;
  ForEachText(content, [&reasons](std::string_view text) {
    std::string reason;
    if (ParseHookPrompt(text, &reason)) reasons.push_back(std::move(reason));
  });
  if (!reasons.empty()) {
    // Several hooks may block at once; the loop guard counts the gate's own.
    std::size_t pick = 0;
    for (std::size_t i = 0; i < reasons.size(); ++i) {
      if (StartsWith(reasons[i], "causegate")) {
        pick = i;
        break;
      }
    }
    rec->kind = LineRecord::Kind::kStopFeedback;
    rec->text = std::move(reasons[pick]);
    return;
  }
  if (prompts != CodexPrompts::kMessages) return;
  std::string text = JoinedText(content);
  if (Trim(text).empty() || IsInjectedContext(text)) return;
  rec->kind = LineRecord::Kind::kPrompt;
  rec->text = std::move(text);
}

void ParseEvent(Element payload, CodexPrompts prompts, LineRecord* rec) {
  const std::string_view type = simd::StringField(payload, "type");
  if (type == "user_message") {
    if (prompts != CodexPrompts::kEvents) return;
    const std::string_view message = simd::StringField(payload, "message");
    if (StartsWith(Trim(message), "<hook_prompt")) return;  // counted from its response_item
    Element images;
    simdjson::dom::array list;
    const bool has_images = simd::Field(payload, "images", &images) &&
                            images.get_array().get(list) == simdjson::SUCCESS && list.size() > 0;
    if (Trim(message).empty() && !has_images) return;
    rec->kind = LineRecord::Kind::kPrompt;
    rec->text = std::string(message);
  } else if (type == "item_completed") {
    // Newer Codex (0.171) writes the typed prompt only as a completed
    // UserMessage item: {"item": {"type": "UserMessage", "content": [{"type":
    // "text", "text": ...}, {"type": "image", ...}]}}.
    if (prompts != CodexPrompts::kEvents) return;
    Element item;
    if (!simd::Field(payload, "item", &item) || !item.is_object()) return;
    const std::string_view item_type = simd::StringField(item, "type");
    if (item_type != "UserMessage" && item_type != "userMessage") return;
    Element content;
    if (!simd::Field(item, "content", &content)) return;
    std::string text = JoinedText(content);
    if (StartsWith(Trim(text), "<hook_prompt")) return;  // counted from its response_item
    simdjson::dom::array parts;
    const bool has_parts = content.get_array().get(parts) == simdjson::SUCCESS && parts.size() > 0;
    if (Trim(text).empty() && !has_parts) return;
    rec->kind = LineRecord::Kind::kPrompt;
    rec->text = std::move(text);
  } else if (type == "task_complete") {
    const std::string_view last = simd::StringField(payload, "last_agent_message");
    if (Trim(last).empty()) return;
    AssistantBlock block;
    block.text = std::string(last);
    rec->blocks.push_back(std::move(block));
    rec->kind = LineRecord::Kind::kAssistant;
  }
}

std::string DecodeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t amp = text.find('&', i);
    if (amp == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, amp - i));
    const std::size_t semi = text.find(';', amp);
    const std::string_view entity =
        semi == std::string_view::npos ? std::string_view() : text.substr(amp + 1, semi - amp - 1);
    static constexpr std::array<std::pair<std::string_view, char>, 5> kNamed = {
        {{"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}}};
    bool decoded = false;
    for (const auto& [name, c] : kNamed) {
      if (entity == name) {
        out.push_back(c);
        decoded = true;
      }
    }
    if (!decoded && entity.size() >= 2 && entity.size() <= 8 && entity[0] == '#') {
      const bool hex = entity[1] == 'x' || entity[1] == 'X';
      const std::string_view digits = entity.substr(hex ? 2 : 1);
      unsigned cp = 0;
      if (std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10).ec == std::errc() &&
          cp > 0 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
        utf8proc_uint8_t bytes[4];
        const utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(cp), bytes);
        out.append(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(n));
        decoded = true;
      }
    }
    if (decoded) {
      i = semi + 1;
    } else {
      out.push_back('&');
      i = amp + 1;
    }
  }
  return out;
}

}  // namespace

bool ParseHookPrompt(std::string_view text, std::string* reason) {
  text = Trim(text);
  constexpr std::string_view kOpen = "<hook_prompt";
  constexpr std::string_view kClose = "</hook_prompt>";
  if (!StartsWith(text, kOpen) || !EndsWith(text, kClose)) return false;
  std::string_view rest = text.substr(kOpen.size(), text.size() - kOpen.size() - kClose.size());
  const std::size_t tag_end = rest.find('>');
  if (tag_end == std::string_view::npos) return false;
  if (tag_end > 0 && !IsSpace(rest[0])) return false;  // <hook_prompts> is another tag
  *reason = DecodeXml(rest.substr(tag_end + 1));
  return true;
}

LineRecord ParseCodexLine(std::string_view line, CodexPrompts prompts) {
  LineRecord rec;
  Element root;
  if (!Parse(line, &root) || !root.is_object()) {
    rec.kind = LineRecord::Kind::kUnreadable;
    return rec;
  }
  Element payload;
  if (!simd::Field(root, "payload", &payload) || !payload.is_object()) return rec;
  const std::string_view type = simd::StringField(root, "type");
  try {
    rec.facts.timestamp = IsoTime(simd::StringField(root, "timestamp"));
    if (type == "session_meta") {
      rec.facts.session_id = std::string(simd::StringField(payload, "id"));
      rec.facts.agent_version = std::string(simd::StringField(payload, "cli_version"));
      rec.facts.cwd = std::string(simd::StringField(payload, "cwd"));
    } else if (type == "turn_context") {
      rec.facts.model = std::string(simd::StringField(payload, "model"));
      rec.facts.cwd = std::string(simd::StringField(payload, "cwd"));
    } else if (type == "event_msg") {
      ParseEvent(payload, prompts, &rec);
    } else if (type == "response_item") {
      const std::string_view item = simd::StringField(payload, "type");
      if (item == "message") {
        ParseMessage(payload, prompts, &rec);
      } else if (item == "function_call") {
        ParseFunctionCall(payload, &rec);
      } else if (item == "custom_tool_call") {
        ParseCustomToolCall(payload, &rec);
      } else if (item == "local_shell_call") {
        ParseLocalShellCall(payload, &rec);
      } else if (item == "function_call_output" || item == "custom_tool_call_output" ||
                 item == "local_shell_call_output") {
        ParseCallOutput(payload, &rec);
      }
    }
  } catch (const std::exception&) {
    // Only allocation can throw here (simdjson runs without exceptions in
    // the calls above); treat the line as unreadable.
    rec = LineRecord();
    rec.kind = LineRecord::Kind::kUnreadable;
  }
  return rec;
}

}  // namespace causegate::evidence
