// Merging causegate's registration into an agent's settings file. The file
// is parsed with nlohmann::ordered_json so keys keep their order, edited
// in place, and written back with the file's own indentation; only the
// entries that carry causegate's mark (registration.h) are added,
// rewritten or removed. Containers that the removal leaves empty (a
// matcher group, an event list, the hooks object, Cursor's and Copilot's
// lone "version") go too, so install followed by uninstall gives back the
// original document.
// Tests: tests/unit/install/registration_test.cc, tests/e2e/init_files.py.
#include "install/registration.h"

#include <limits.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "evidence/json_bounds.h"
#include "evidence/limits.h"

namespace causegate::install {
namespace {

using Json = nlohmann::ordered_json;

enum class Layout {
  kGrouped,  // event -> [ {matcher?, hooks: [handler, ...]} ]  (Claude Code, Codex, Gemini)
  kFlat,     // event -> [ handler, ... ]                        (Cursor, Copilot)
};

Layout LayoutOf(Agent agent) {
  return agent == Agent::kCursor || agent == Agent::kCopilot ? Layout::kFlat : Layout::kGrouped;
}

std::string HookCommandLine(Agent agent, const std::string& binary) {
  return ShellQuote(binary) + " hook --agent " + AgentName(agent);
}

Json Handler(Agent agent, const std::string& binary) {
  Json h = Json::object();
  switch (agent) {
    case Agent::kClaudeCode:
      h["type"] = "command";
      h["command"] = binary;  // exec form: no shell involved
      h["args"] = Json::array({"hook", "--agent", AgentName(agent)});
      h["timeout"] = 30;
      break;
    case Agent::kCodex:
      h["type"] = "command";
      h["command"] = HookCommandLine(agent, binary);
      h["timeout"] = 30;
      break;
    case Agent::kGemini:
      h["type"] = "command";
      h["command"] = HookCommandLine(agent, binary);
      h["name"] = "causegate";
      h["timeout"] = 30000;  // milliseconds
      break;
    case Agent::kCursor:
      h["command"] = HookCommandLine(agent, binary);
      break;
    case Agent::kCopilot:
      h["type"] = "command";
      h["bash"] = HookCommandLine(agent, binary);
      h["timeoutSec"] = 30;
      break;
  }
  return h;
}

// The words of a shell command line (quotes removed), at most limit of them.
std::vector<std::string> ShellWords(std::string_view line, std::size_t limit) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (const char c : line) {
    if (words.size() == limit) break;
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else {
        word.push_back(c);
      }
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word.push_back(c);
      in_word = true;
    }
  }
  if (in_word && words.size() < limit) words.push_back(std::move(word));
  return words;
}

std::vector<std::string> FirstWords(std::string_view line) { return ShellWords(line, 2); }

bool IsCausegateBinary(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return base.rfind("causegate", 0) == 0;
}

bool IsOurs(const Json& handler) {
  if (!handler.is_object()) return false;
  const auto command = handler.find("command");
  const auto args = handler.find("args");
  if (command != handler.end() && command->is_string() && args != handler.end() && args->is_array()) {
    return IsCausegateBinary(command->get<std::string>()) && !args->empty() && args->front() == "hook";
  }
  for (const char* field : {"command", "bash"}) {
    const auto it = handler.find(field);
    if (it == handler.end() || !it->is_string()) continue;
    const std::vector<std::string> words = FirstWords(it->get<std::string>());
    if (words.size() == 2 && IsCausegateBinary(words[0]) && words[1] == "hook") return true;
  }
  return false;
}

// Finds causegate's handler in an event's list: *group_index (grouped
// layout) and *handler_index. False when there is none.
bool FindOurs(const Json& list, Layout layout, std::size_t* group_index, std::size_t* handler_index) {
  for (std::size_t g = 0; g < list.size(); ++g) {
    if (layout == Layout::kFlat) {
      if (IsOurs(list[g])) {
        *handler_index = g;
        return true;
      }
      continue;
    }
    const Json& group = list[g];
    if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) continue;
    for (std::size_t h = 0; h < group["hooks"].size(); ++h) {
      if (IsOurs(group["hooks"][h])) {
        *group_index = g;
        *handler_index = h;
        return true;
      }
    }
  }
  return false;
}

void AddEvent(Json* list, Layout layout, const Json& handler, const std::string& event, EditResult* out) {
  std::size_t g = 0;
  std::size_t h = 0;
  if (FindOurs(*list, layout, &g, &h)) {
    Json& existing = layout == Layout::kFlat ? (*list)[h] : (*list)[g]["hooks"][h];
    if (existing != handler) {
      existing = handler;
      out->updated.push_back(event);
    }
    return;
  }
  if (layout == Layout::kFlat) {
    list->push_back(handler);
  } else {
    Json group = Json::object();
    group["hooks"] = Json::array({handler});
    list->push_back(std::move(group));
  }
  out->added.push_back(event);
}

void RemoveEvent(Json* list, Layout layout, const std::string& event, EditResult* out) {
  bool removed = false;
  if (layout == Layout::kFlat) {
    for (std::size_t i = list->size(); i-- > 0;) {
      if (IsOurs((*list)[i])) {
        list->erase(i);
        removed = true;
      }
    }
  } else {
    for (std::size_t g = list->size(); g-- > 0;) {
      Json& group = (*list)[g];
      if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) continue;
      Json& handlers = group["hooks"];
      const std::size_t before = handlers.size();
      for (std::size_t h = handlers.size(); h-- > 0;) {
        if (IsOurs(handlers[h])) handlers.erase(h);
      }
      if (handlers.size() == before) continue;
      removed = true;
      if (handlers.empty()) list->erase(g);
    }
  }
  if (removed) out->removed.push_back(event);
}

// A settings document: blank text is an empty object.
Status ParseDocument(const std::string& text, Json* doc) {
  *doc = Json::object();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return Status::Ok();
  if (!evidence::JsonDepthWithin(text, limits::kMaxJsonDepth)) return Status::Error("JSON nested too deep");
  *doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc->is_discarded()) return Status::Error("not valid JSON (comments are not allowed either)");
  if (!doc->is_object()) return Status::Error("not a JSON object");
  return Status::Ok();
}

// The variables a header value names, $VAR or ${VAR}, as Claude Code
// expands them in http hooks.
void VariablesNamed(const std::string& value, std::vector<std::string>* out) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (std::size_t i = value.find('$'); i != std::string::npos; i = value.find('$', i + 1)) {
    const bool braced = i + 1 < value.size() && value[i + 1] == '{';
    std::size_t end = i + 1 + (braced ? 1 : 0);
    const std::size_t start = end;
    while (end < value.size() && word(value[end])) ++end;
    if (end > start && (!braced || (end < value.size() && value[end] == '}'))) {
      out->push_back(value.substr(start, end - start));
    }
  }
}

HookEntry Describe(const std::string& event, std::size_t group, std::size_t index, const Json& handler) {
  HookEntry e;
  e.event = event;
  e.group = group;
  e.index = index;
  e.ours = IsOurs(handler);
  if (!handler.is_object()) return e;
  auto text = [&](const char* key) {
    const auto it = handler.find(key);
    return it != handler.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  e.type = text("type");
  e.url = text("url");
  if (const auto headers = handler.find("headers"); headers != handler.end() && headers->is_object()) {
    for (const auto& [name, value] : headers->items()) {
      if (value.is_string()) VariablesNamed(value.get<std::string>(), &e.header_vars);
    }
  }
  if (const auto allowed = handler.find("allowedEnvVars"); allowed != handler.end() && allowed->is_array()) {
    for (const Json& v : *allowed) {
      if (v.is_string()) e.allowed_env_vars.push_back(v.get<std::string>());
    }
  }
  e.command = text("command");
  if (e.command.empty()) e.command = text("bash");
  const auto args = handler.find("args");
  if (args != handler.end() && args->is_array()) {
    e.exec_form = true;
    e.program = e.command;
    for (const Json& a : *args) e.words.push_back(a.is_string() ? a.get<std::string>() : a.dump());
  } else {
    e.words = ShellWords(e.command, static_cast<std::size_t>(-1));
    if (!e.words.empty()) {
      e.program = e.words.front();
      e.words.erase(e.words.begin());
    }
  }
  for (const char* key : {"timeout", "timeoutSec"}) {
    const auto it = handler.find(key);
    if (it != handler.end() && it->is_number_integer()) e.timeout = it->get<long long>();
  }
  const auto async = handler.find("async");
  e.async = async != handler.end() && async->is_boolean() && async->get<bool>();
  return e;
}

// The indentation of text: the white space starting its first indented line.
std::pair<char, int> DetectIndent(const std::string& text) {
  for (std::size_t i = text.find('\n'); i != std::string::npos; i = text.find('\n', i + 1)) {
    std::size_t j = i + 1;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    if (j == i + 1 || j >= text.size() || text[j] == '\n' || text[j] == '\r') continue;
    const char c = text[i + 1];
    return {c, static_cast<int>(j - i - 1)};
  }
  return {' ', 2};
}

}  // namespace

const char* AgentName(Agent agent) {
  switch (agent) {
    case Agent::kClaudeCode: return "claude-code";
    case Agent::kCodex: return "codex";
    case Agent::kGemini: return "gemini";
    case Agent::kCursor: return "cursor";
    case Agent::kCopilot: return "copilot";
  }
  return "unknown";
}

bool ParseAgent(std::string_view name, Agent* agent) {
  for (const Agent a : kAllAgents) {
    if (name == AgentName(a)) {
      *agent = a;
      return true;
    }
  }
  if (name == "claude") {
    *agent = Agent::kClaudeCode;
    return true;
  }
  return false;
}

Places PlacesFromEnvironment(const std::string& home_override) {
  auto env = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr ? std::string(value) : std::string();
  };
  char cwd[PATH_MAX];
  const std::string working_folder = getcwd(cwd, sizeof cwd) != nullptr ? std::string(cwd) : std::string(".");
  return Places{!home_override.empty() ? home_override : env("HOME"), working_folder, env("CODEX_HOME")};
}

std::string AgentFolder(Agent agent, Scope scope, const Places& places) {
  const std::string& root = scope == Scope::kUser ? places.home : places.project;
  switch (agent) {
    case Agent::kClaudeCode: return root + "/.claude";
    case Agent::kCodex: return scope == Scope::kUser && !places.codex_home.empty() ? places.codex_home : root + "/.codex";
    case Agent::kGemini: return root + "/.gemini";
    case Agent::kCursor: return root + "/.cursor";
    case Agent::kCopilot: return root + (scope == Scope::kUser ? "/.copilot" : "/.github");
  }
  return root;
}

std::string SettingsPath(Agent agent, Scope scope, const Places& places) {
  const std::string folder = AgentFolder(agent, scope, places);
  switch (agent) {
    case Agent::kClaudeCode:
    case Agent::kGemini: return folder + "/settings.json";
    case Agent::kCodex:
    case Agent::kCursor: return folder + "/hooks.json";
    case Agent::kCopilot: return folder + "/hooks/causegate.json";
  }
  return folder;
}

std::vector<std::string> HookEvents(Agent agent) {
  switch (agent) {
    case Agent::kClaudeCode: return {"Stop", "SubagentStop"};
    case Agent::kCodex: return {"Stop"};
    case Agent::kGemini: return {"AfterAgent"};
    case Agent::kCursor:
      return {"beforeSubmitPrompt", "beforeReadFile", "afterShellExecution", "afterMCPExecution",
              "afterFileEdit",      "afterAgentResponse", "stop"};
    case Agent::kCopilot: return {"userPromptSubmitted", "postToolUse", "agentStop", "subagentStop"};
  }
  return {};
}

Status ListHooks(Agent agent, const std::string& text, std::vector<HookEntry>* out) {
  out->clear();
  Json doc;
  if (Status s = ParseDocument(text, &doc); !s.ok()) return s;
  if (!doc.contains("hooks")) return Status::Ok();
  if (!doc["hooks"].is_object()) return Status::Error("\"hooks\" is not an object");
  const Json& hooks = doc["hooks"];
  for (const std::string& event : HookEvents(agent)) {
    if (!hooks.contains(event)) continue;
    const Json& list = hooks[event];
    if (!list.is_array()) return Status::Error("\"hooks\"." + event + " is not a list");
    for (std::size_t g = 0; g < list.size(); ++g) {
      if (LayoutOf(agent) == Layout::kFlat) {
        out->push_back(Describe(event, 0, g, list[g]));
        continue;
      }
      const Json& group = list[g];
      if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) continue;
      for (std::size_t h = 0; h < group["hooks"].size(); ++h) out->push_back(Describe(event, g, h, group["hooks"][h]));
    }
  }
  return Status::Ok();
}

std::string ShellQuote(std::string_view word) {
  bool plain = !word.empty();
  for (const char c : word) {
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                      c == '.' || c == '/' || c == '=' || c == ':' || c == '-');
  }
  if (plain) return std::string(word);
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

Status EditSettings(Agent agent, Edit edit, const std::string& binary, const std::string& before, bool exists,
                    bool had_backup, EditResult* out) {
  *out = EditResult();
  const bool blank = before.find_first_not_of(" \t\r\n") == std::string::npos;
  Json doc = Json::object();
  if (Status s = ParseDocument(before, &doc); !s.ok()) return s;
  const Layout layout = LayoutOf(agent);
  if (edit == Edit::kAdd && doc.empty() && layout == Layout::kFlat) doc["version"] = 1;
  if (doc.contains("hooks") && !doc["hooks"].is_object()) return Status::Error("\"hooks\" is not an object");
  if (edit == Edit::kAdd && !doc.contains("hooks")) doc["hooks"] = Json::object();

  const Json handler = Handler(agent, binary);
  for (const std::string& event : HookEvents(agent)) {
    if (!doc.contains("hooks")) break;
    Json& hooks = doc["hooks"];
    if (hooks.contains(event) && !hooks[event].is_array()) {
      return Status::Error("\"hooks\"." + event + " is not a list");
    }
    if (edit == Edit::kAdd) {
      if (!hooks.contains(event)) hooks[event] = Json::array();
      AddEvent(&hooks[event], layout, handler, event, out);
    } else if (hooks.contains(event)) {
      RemoveEvent(&hooks[event], layout, event, out);
      if (hooks[event].empty() && !out->removed.empty() && out->removed.back() == event) hooks.erase(event);
    }
  }
  if (edit == Edit::kRemove && !out->removed.empty()) {
    if (doc.contains("hooks") && doc["hooks"].empty()) doc.erase("hooks");
    if (layout == Layout::kFlat && doc.size() == 1 && doc.contains("version") && doc["version"] == 1) {
      doc.erase("version");
    }
    if (doc.empty() && exists && !had_backup) {
      out->remove_file = true;  // causegate created this file; nothing else is in it
      return Status::Ok();
    }
  }
  if (out->added.empty() && out->updated.empty() && out->removed.empty()) {
    out->after = before;  // unchanged, byte for byte
    return Status::Ok();
  }
  const auto [indent_char, indent] = DetectIndent(before);
  out->after = doc.dump(indent, indent_char, /*ensure_ascii=*/false, Json::error_handler_t::replace);
  if (blank || before.back() == '\n') out->after.push_back('\n');
  return Status::Ok();
}

}  // namespace causegate::install
