// Helpers for the evidence tests: a temporary folder that cleans up after
// itself, and builders for Claude Code transcript lines shaped like the
// real ones (research/fixtures), so synthetic transcripts stay close to
// what Claude Code writes.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <vector>

namespace causegate::evidence::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "causegate-test-XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

  // Writes lines joined by '\n', with a final '\n' unless told otherwise.
  std::string Write(const std::string& name, const std::vector<std::string>& lines,
                    bool final_newline = true) const {
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      text += lines[i];
      if (i + 1 < lines.size() || final_newline) text += '\n';
    }
    return WriteRaw(name, text);
  }

  std::string WriteRaw(const std::string& name, const std::string& text) const {
    const std::string path = File(name);
    std::ofstream out(path, std::ios::binary);
    out << text;
    return path;
  }

 private:
  std::string path_;
};

using nlohmann::json;

inline json Envelope(const char* type, bool sidechain = false) {
  return json{{"parentUuid", nullptr},
              {"isSidechain", sidechain},
              {"userType", "external"},
              {"cwd", "/home/dev/src/service"},
              {"sessionId", "5c1d7a34-0000-4000-8000-000000000001"},
              {"version", "2.1.59"},
              {"gitBranch", "main"},
              {"type", type},
              {"uuid", "00000000-0000-4000-8000-000000000000"},
              {"timestamp", "2026-03-01T10:00:00.000Z"}};
}

inline std::string Dump(const json& j) { return j.dump(); }

// A typed prompt as Claude Code writes it (string content).
inline std::string Prompt(const std::string& text, bool sidechain = false) {
  json j = Envelope("user", sidechain);
  j["message"] = {{"role", "user"}, {"content", text}};
  j["permissionMode"] = "default";
  return Dump(j);
}

// A user line with content given as blocks.
inline std::string UserBlocks(const json& blocks, bool sidechain = false) {
  json j = Envelope("user", sidechain);
  j["message"] = {{"role", "user"}, {"content", blocks}};
  return Dump(j);
}

inline std::string Meta(const std::string& text, bool sidechain = false) {
  json j = Envelope("user", sidechain);
  j["message"] = {{"role", "user"}, {"content", text}};
  j["isMeta"] = true;
  return Dump(j);
}

inline std::string Assistant(const std::string& msg_id, const json& block,
                             bool sidechain = false) {
  json j = Envelope("assistant", sidechain);
  j["message"] = {{"model", "claude-opus-4-6"}, {"id", msg_id},          {"type", "message"},
                  {"role", "assistant"},        {"content", {block}},    {"stop_reason", nullptr},
                  {"stop_sequence", nullptr},   {"usage", {{"input_tokens", 3}}}};
  j["requestId"] = "req_" + msg_id;
  return Dump(j);
}

inline std::string Text(const std::string& msg_id, const std::string& text,
                        bool sidechain = false) {
  return Assistant(msg_id, json{{"type", "text"}, {"text", text}}, sidechain);
}

inline std::string Thinking(const std::string& msg_id, const std::string& text) {
  return Assistant(msg_id, json{{"type", "thinking"}, {"thinking", text}, {"signature", "Es"}});
}

inline std::string ToolUse(const std::string& msg_id, const std::string& id,
                           const std::string& name, const json& input, bool sidechain = false) {
  return Assistant(msg_id,
                   json{{"type", "tool_use"},
                        {"id", id},
                        {"name", name},
                        {"input", input},
                        {"caller", {{"type", "direct"}}}},
                   sidechain);
}

// A tool result line; content is a string or an array of blocks.
inline std::string Result(const std::string& id, const json& content, bool is_error = false,
                          bool sidechain = false) {
  json j = Envelope("user", sidechain);
  j["message"] = {
      {"role", "user"},
      {"content",
       {{{"tool_use_id", id}, {"type", "tool_result"}, {"content", content}, {"is_error", is_error}}}}};
  if (!sidechain) j["toolUseResult"] = {{"stdout", "..."}, {"stderr", ""}};
  return Dump(j);
}

inline std::string Progress() {
  json j = Envelope("progress");
  j["data"] = {{"type", "hook_progress"}, {"hookEvent", "Stop"}, {"hookName", "Stop"},
               {"command", "causegate hook"}};
  return Dump(j);
}

inline std::string Snapshot() {
  return Dump(json{{"type", "file-history-snapshot"},
                   {"messageId", "m"},
                   {"snapshot", {{"trackedFileBackups", json::object()}}},
                   {"isSnapshotUpdate", false}});
}

inline std::string System(const char* subtype) {
  json j = Envelope("system");
  j["subtype"] = subtype;
  return Dump(j);
}

}  // namespace causegate::evidence::testing
