// Which tool outputs a model wrote, and where a Claude Code subagent's own
// transcript is. The tool list is by name as the readers give it: Claude
// Code's names as written, Copilot's and Gemini's where their readers keep
// the agent's own name. Tools whose output is a program's (a shell, a file
// read, a search's list of links) are not on it. Nor, for want of a
// measured shape, are Codex's wait_agent (JSON whose strings hold the
// answers, so every word of them would read as quoted) and Gemini CLI's
// subagents (one tool per agent name).
// Tests: tests/unit/evidence/model_output_test.cc.
#include "evidence/model_output.h"

#include <filesystem>

namespace causegate::evidence {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kAgentIdLine = "agentId: ";
constexpr std::size_t kMaxAgentIdChars = 128;

bool IsIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

}  // namespace

ModelAuthor ModelWrittenOutput(std::string_view tool) {
  // Claude Code's subagent tool (Agent; Task in older versions) returns
  // the subagent's final message; Copilot CLI's `task` does the same.
  if (tool == "Agent" || tool == "Task" || tool == "task") return ModelAuthor::kSubagent;
  // Claude Code's WebFetch and Gemini CLI's web_fetch hand the page and the
  // caller's prompt to a model and return its answer, not the page
  // (research fixtures: "The latest stable version is **1.5.0** ...").
  if (tool == "WebFetch" || tool == "web_fetch") return ModelAuthor::kSummary;
  return ModelAuthor::kNone;
}

std::string SubagentIdIn(std::string_view output) {
  std::size_t at = output.rfind(kAgentIdLine);
  while (at != std::string_view::npos && at > 0 && output[at - 1] != '\n') at = output.rfind(kAgentIdLine, at - 1);
  if (at == std::string_view::npos) return "";
  const std::size_t begin = at + kAgentIdLine.size();
  std::size_t end = begin;
  while (end < output.size() && IsIdChar(output[end])) ++end;
  if (end == begin || end - begin > kMaxAgentIdChars) return "";
  // The id must end the word: "abc/../x" or "abc.jsonl" is no id.
  if (end < output.size() && output[end] != ' ' && output[end] != '\n' && output[end] != '\r') return "";
  return std::string(output.substr(begin, end - begin));
}

std::string SubagentFolderOf(std::string_view transcript_path) {
  if (transcript_path.empty()) return "";
  const fs::path path(transcript_path);
  // A relative name with no folder is in the working folder.
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (dir.filename() == "subagents") return dir.string();
  return (dir / path.stem() / "subagents").string();
}

std::string SubagentTranscriptPath(std::string_view folder, std::string_view agent_id) {
  return std::string(folder) + "/agent-" + std::string(agent_id) + ".jsonl";
}

}  // namespace causegate::evidence
