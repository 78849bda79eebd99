// Merging causegate's registration into an agent's settings file. The
// file is edited as text (install/jsonc_edit.h): its places come from our
// own parser (JSONC for Gemini CLI), what an entry means from
// nlohmann::ordered_json reading the same value, and each change is a few
// bytes inserted or removed, so the rest of the file stays as the user
// wrote it. Only the entries that carry causegate's mark (registration.h)
// are added, brought up to date or removed; containers that the removal
// leaves empty (a matcher group, an event list, the hooks object, Cursor's
// and Copilot's lone "version") go too, so install followed by uninstall
// gives back the original bytes.
// Tests: tests/unit/install/registration_test.cc, tests/e2e/init_files.py.
#include "install/registration.h"

#include <limits.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "install/jsonc_edit.h"

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

std::vector<std::string> HookArgs(Agent agent, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"hook", "--agent", AgentName(agent)};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string CommandLine(const std::string& binary, const std::vector<std::string>& args) {
  std::string out = ShellQuote(binary);
  for (const std::string& a : args) out += " " + ShellQuote(a);
  return out;
}

Json Handler(Agent agent, const HookCommand& command) {
  const std::vector<std::string> args = HookArgs(agent, command.extra_args.value_or(std::vector<std::string>()));
  const std::string& binary = command.binary;
  Json h = Json::object();
  switch (agent) {
    case Agent::kClaudeCode:
      h["type"] = "command";
      h["command"] = binary;  // exec form: no shell involved
      h["args"] = args;
      h["timeout"] = 30;
      break;
    case Agent::kCodex:
      h["type"] = "command";
      h["command"] = CommandLine(binary, args);
      h["timeout"] = 30;
      break;
    case Agent::kGemini:
      h["type"] = "command";
      h["command"] = CommandLine(binary, args);
      h["name"] = "causegate";
      h["timeout"] = 30000;  // milliseconds
      break;
    case Agent::kCursor:
      h["command"] = CommandLine(binary, args);
      break;
    case Agent::kCopilot:
      h["type"] = "command";
      h["bash"] = CommandLine(binary, args);
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

// The agents that read their settings file as JSONC: Gemini CLI reads
// settings.json through strip-json-comments (comments and trailing commas).
JsonSyntax SyntaxOf(Agent agent) { return agent == Agent::kGemini ? JsonSyntax::kJsonc : JsonSyntax::kStrict; }

bool Blank(const std::string& text) { return text.find_first_not_of(" \t\r\n") == std::string::npos; }

// A settings document (blank text is an empty object), with the places of
// its values for editing.
Status ParseText(Agent agent, const std::string& text, JsoncDocument* doc) {
  if (Status s = JsoncDocument::Parse(Blank(text) ? "{}" : text, SyntaxOf(agent), doc); !s.ok()) return s;
  if (!doc->root().is_object()) return Status::Error("not a JSON object");
  return Status::Ok();
}

// The value of node as a JSON library reads it.
Json ValueOf(const JsoncDocument& doc, const JsonNode& node) {
  return Json::parse(doc.strict_text().substr(node.start, node.end - node.start), nullptr,
                     /*allow_exceptions=*/false);
}

Status ParseDocument(Agent agent, const std::string& text, Json* out) {
  JsoncDocument doc;
  if (Status s = ParseText(agent, text, &doc); !s.ok()) return s;
  *out = ValueOf(doc, doc.root());
  if (out->is_discarded()) return Status::Error("not valid JSON");
  return Status::Ok();
}

// A value to insert: the parse of its compact dump.
JsonNode NodeOf(const Json& value) {
  JsoncDocument doc;
  const Status s = JsoncDocument::Parse(value.dump(-1, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace),
                                        JsonSyntax::kStrict, &doc);
  return s.ok() ? doc.root() : JsonNode();
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

// The arguments after `hook` that are not `--agent NAME`: flags the user
// added by hand (or with init --args), kept on a re-run.
std::vector<std::string> ExtraWords(const std::vector<std::string>& after_hook) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < after_hook.size(); ++i) {
    if (after_hook[i] == "--agent") {
      ++i;
    } else if (after_hook[i].rfind("--agent=", 0) != 0) {
      out.push_back(after_hook[i]);
    }
  }
  return out;
}

std::size_t IndexIn(const JsonNode& container, const JsonNode* child) {
  return static_cast<std::size_t>(child - container.children.data());
}

// Edits one settings text step by step, each step on a fresh parse of the
// text the last one left, so every edit is computed on the places as they
// are (settings files are small; a step costs one parse).
class SettingsEditor {
 public:
  explicit SettingsEditor(Agent agent) : agent_(agent), layout_(LayoutOf(agent)) {}

  // Errors: not JSON (with line and column), not an object, a hooks
  // section of another shape. Nothing is edited then.
  Status Start(const std::string& before) {
    if (Status s = ParseText(agent_, before, &doc_); !s.ok()) return s;
    text_ = doc_.text();
    const JsonNode* hooks = doc_.root().Find("hooks");
    if (hooks == nullptr) return Status::Ok();
    if (!hooks->is_object()) return Status::Error("\"hooks\" is not an object");
    for (const std::string& event : HookEvents(agent_)) {
      const JsonNode* list = hooks->Find(event);
      if (list != nullptr && !list->is_array()) return Status::Error("\"hooks\"." + event + " is not a list");
    }
    return Status::Ok();
  }

  const std::string& text() const { return text_; }
  const JsonNode& root() const { return doc_.root(); }
  // An error when a step's text did not parse back (a bug in the editor):
  // the caller then writes nothing.
  const Status& status() const { return status_; }

  void Add(const HookCommand& command, EditResult* out) {
    const Json handler = Handler(agent_, command);
    if (layout_ == Layout::kFlat && root().children.empty()) Apply(AppendItems(doc_, root(), {{"version", NodeOf(1)}}));
    if (root().Find("hooks") == nullptr) {
      Json all = Json::object();
      for (const std::string& event : HookEvents(agent_)) {
        all[event] = Json::array({Entry(handler)});
        out->added.push_back(event);
      }
      Apply(AppendItems(doc_, root(), {{"hooks", NodeOf(all)}}));
      return;
    }
    std::vector<NewItem> missing;
    for (const std::string& event : HookEvents(agent_)) {
      const JsonNode* list = root().Find("hooks")->Find(event);
      if (list == nullptr) {
        missing.push_back({event, NodeOf(Json::array({Entry(handler)}))});
        out->added.push_back(event);
      } else if (const JsonNode* ours = FindOurs(*list); ours != nullptr) {
        std::vector<TextEdit> edits = Update(*ours, command);
        if (!edits.empty()) out->updated.push_back(event);
        Apply(std::move(edits));
      } else {
        Apply(AppendItems(doc_, *list, {{"", NodeOf(Entry(handler))}}));
        out->added.push_back(event);
      }
    }
    if (!missing.empty()) Apply(AppendItems(doc_, *root().Find("hooks"), missing));
  }

  // Removes each of causegate's handlers, with the group, event list and
  // hooks object it leaves empty (and Cursor's and Copilot's lone version).
  void Remove(EditResult* out) {
    while (RemoveOne(out)) {
    }
    if (out->removed.empty()) return;
    if (const JsonNode* hooks = root().Find("hooks"); hooks != nullptr && hooks->children.empty()) {
      Apply(RemoveItem(doc_, root(), IndexIn(root(), hooks)));
    }
    if (layout_ == Layout::kFlat && root().children.size() == 1 && root().children[0].key == "version" &&
        root().children[0].raw == "1") {
      Apply(RemoveItem(doc_, root(), 0));
    }
  }

 private:
  Json Entry(const Json& handler) const {
    if (layout_ == Layout::kFlat) return handler;
    Json group = Json::object();
    group["hooks"] = Json::array({handler});
    return group;
  }

  void Apply(std::vector<TextEdit> edits) {
    if (edits.empty() || !status_.ok()) return;
    std::string next_text = ApplyEdits(text_, std::move(edits));
    JsoncDocument next;
    if (Status s = JsoncDocument::Parse(next_text, doc_.syntax(), &next); !s.ok()) {
      status_ = Status::Error("causegate's edit of this file does not parse back (" + s.message() +
                              "); please report it");
      return;
    }
    text_ = std::move(next_text);
    doc_ = std::move(next);
  }

  bool IsOursNode(const JsonNode& handler) const { return IsOurs(ValueOf(doc_, handler)); }

  // causegate's handler in an event's list, or nullptr.
  const JsonNode* FindOurs(const JsonNode& list) const {
    for (const JsonNode& entry : list.children) {
      if (layout_ == Layout::kFlat) {
        if (IsOursNode(entry)) return &entry;
        continue;
      }
      const JsonNode* handlers = entry.is_object() ? entry.Find("hooks") : nullptr;
      if (handlers == nullptr || !handlers->is_array()) continue;
      for (const JsonNode& h : handlers->children) {
        if (IsOursNode(h)) return &h;
      }
    }
    return nullptr;
  }

  // The edits that bring causegate's handler to command: the program and
  // `hook --agent NAME`, then the extra arguments (command's, or else the
  // ones already there). Every other field is the user's and stays.
  std::vector<TextEdit> Update(const JsonNode& handler, const HookCommand& command) const {
    const JsonNode* program = handler.Find("command");
    const JsonNode* args = handler.Find("args");
    if (program != nullptr && program->kind == JsonNode::Kind::kString && args != nullptr && args->is_array()) {
      std::vector<std::string> words;
      for (const JsonNode& a : args->children) words.push_back(a.kind == JsonNode::Kind::kString ? a.value : a.raw);
      const std::vector<std::string> want = HookArgs(
          agent_, command.extra_args.value_or(ExtraWords(std::vector<std::string>(words.begin() + 1, words.end()))));
      std::vector<TextEdit> edits;
      if (program->value != command.binary) edits = ReplaceValue(doc_, *program, NodeOf(command.binary));
      if (words != want) {
        for (TextEdit& e : ReplaceValue(doc_, *args, NodeOf(want))) edits.push_back(std::move(e));
      }
      return edits;
    }
    for (const char* field : {"command", "bash"}) {
      const JsonNode* line = handler.Find(field);
      if (line == nullptr || line->kind != JsonNode::Kind::kString) continue;
      std::vector<std::string> words = ShellWords(line->value, static_cast<std::size_t>(-1));
      if (words.size() < 2 || !IsCausegateBinary(words[0]) || words[1] != "hook") continue;
      const std::string want = CommandLine(
          command.binary,
          HookArgs(agent_, command.extra_args.value_or(ExtraWords(std::vector<std::string>(words.begin() + 2, words.end())))));
      if (line->value == want) return {};
      return ReplaceValue(doc_, *line, NodeOf(want));
    }
    return {};
  }

  bool RemoveOne(EditResult* out) {
    const JsonNode* hooks = root().Find("hooks");
    if (hooks == nullptr || !hooks->is_object()) return false;
    for (const std::string& event : HookEvents(agent_)) {
      const JsonNode* list = hooks->Find(event);
      if (list == nullptr || !list->is_array()) continue;
      const JsonNode* ours = FindOurs(*list);
      if (ours == nullptr) continue;
      if (out->removed.empty() || out->removed.back() != event) out->removed.push_back(event);
      // The outermost container that would be left empty goes with it.
      const JsonNode* group = nullptr;
      const JsonNode* handlers = list;
      if (layout_ == Layout::kGrouped) {
        for (const JsonNode& g : list->children) {
          const JsonNode* h = g.is_object() ? g.Find("hooks") : nullptr;
          if (h != nullptr && ours >= h->children.data() && ours < h->children.data() + h->children.size()) {
            group = &g;
            handlers = h;
          }
        }
      }
      if (handlers->children.size() > 1) {
        Apply(RemoveItem(doc_, *handlers, IndexIn(*handlers, ours)));
      } else if (group != nullptr && list->children.size() > 1) {
        Apply(RemoveItem(doc_, *list, IndexIn(*list, group)));
      } else {
        Apply(RemoveItem(doc_, *hooks, IndexIn(*hooks, list)));
      }
      return true;
    }
    return false;
  }

  Agent agent_;
  Layout layout_;
  JsoncDocument doc_;
  std::string text_;
  Status status_;
};

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
  if (Status s = ParseDocument(agent, text, &doc); !s.ok()) return s;
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

std::vector<std::string> SplitShellWords(std::string_view line) {
  return ShellWords(line, static_cast<std::size_t>(-1));
}

std::string ProjectRoot(const std::string& folder) {
  std::error_code ec;
  for (std::filesystem::path p = folder; !p.empty(); p = p.parent_path()) {
    if (std::filesystem::exists(p / ".git", ec)) return p.string();
    if (p == p.root_path()) break;
  }
  return folder;
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

Status EditSettings(Agent agent, Edit edit, const HookCommand& command, const std::string& before, bool exists,
                    bool had_backup, EditResult* out) {
  *out = EditResult();
  SettingsEditor editor(agent);
  if (Status s = editor.Start(before); !s.ok()) return s;
  if (edit == Edit::kAdd) {
    editor.Add(command, out);
  } else {
    editor.Remove(out);
  }
  if (!editor.status().ok()) return editor.status();
  if (out->added.empty() && out->updated.empty() && out->removed.empty()) {
    out->after = before;  // unchanged, byte for byte
    return Status::Ok();
  }
  if (edit == Edit::kRemove && editor.root().children.empty() && exists && !had_backup) {
    out->remove_file = true;  // causegate created this file; nothing else is in it
    return Status::Ok();
  }
  out->after = editor.text();
  if (Blank(before)) out->after += "\n";
  return Status::Ok();
}

}  // namespace causegate::install
