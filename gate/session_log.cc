// Writing the session log (see session_log.h for what and why). Each event
// becomes whole lines written with one write() under flock, so a reader
// never sees half a record from a live writer; a line cut by a crash is
// skipped by the transcript reader like any truncated last line.
#include "gate/session_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "evidence/limits.h"
#include "gate/adapters.h"
#include "gate/state_cap.h"
#include "gate/state_dir.h"
#include "gate/state_lock.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

constexpr std::string_view kPromptMarker = "\"causegate_log\":\"prompt\"";

std::string Dump(const json& line) { return line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

std::string UniqueId() {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return std::to_string(ns) + "-" + std::to_string(getpid());
}

Status WriteAll(int fd, std::string_view text, const std::string& path) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::Error(path + ": " + std::strerror(errno));
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return Status::Ok();
}

// Keeps the log from its last prompt on, so it cannot grow without bound;
// when even that is too large (one huge turn), the log starts over.
Status CutToLastPrompt(int fd, const std::string& path, std::size_t adding) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t keep = 0;
  if (const std::size_t at = text.rfind(kPromptMarker); at != std::string::npos) {
    const std::size_t bol = text.rfind('\n', at);
    keep = bol == std::string::npos ? 0 : bol + 1;
  }
  if (text.size() - keep + adding > kMaxSessionLogBytes) keep = text.size();
  if (ftruncate(fd, 0) != 0) return Status::Error(path + ": " + std::strerror(errno));
  return WriteAll(fd, std::string_view(text).substr(keep), path);
}

void DeleteOldLogs(const std::string& dir) {
  std::error_code ec;
  const auto cutoff = std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * kSessionLogMaxAgeDays);
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".jsonl") continue;
    const auto when = std::filesystem::last_write_time(it->path(), ec);
    if (!ec && when < cutoff) std::filesystem::remove(it->path(), ec);
  }
}

}  // namespace

std::string SessionLogPath(const std::string& state, Agent agent, std::string_view session_id,
                           std::string_view cwd) {
  if (state.empty()) return "";
  const std::string key = session_id.empty() ? "cwd-" + HashHex(cwd) : SafeFileName(session_id);
  return state + "/sessions/" + AgentName(agent) + "/" + key + ".jsonl";
}

std::string SessionLogLines(const ObservedEvent& event, const std::string& unique) {
  switch (event.kind) {
    case ObservedEvent::Kind::kPrompt: {
      json line;
      line["type"] = "user";
      if (adapters::IsOurFeedback(event.text)) {
        // Our own reason, sent back as the next prompt: feedback, not a turn.
        line["isMeta"] = true;
        line["message"] = {{"role", "user"}, {"content", "Stop hook feedback:\n" + event.text}};
        return Dump(line);
      }
      line["causegate_log"] = "prompt";
      line["message"] = {{"role", "user"}, {"content", event.text}};
      return Dump(line);
    }
    case ObservedEvent::Kind::kToolCall: {
      json input = json::parse(event.tool_input, nullptr, /*allow_exceptions=*/false);
      if (input.is_discarded() || !input.is_object()) input = json{{"input", event.tool_input}};
      json call;
      call["type"] = "assistant";
      call["message"] = {{"id", "msg-" + unique},
                         {"role", "assistant"},
                         {"content", json::array({{{"type", "tool_use"},
                                                   {"id", "call-" + unique},
                                                   {"name", event.tool_name},
                                                   {"input", input}}})}};
      std::string output = event.tool_output;
      if (output.size() > limits::kMaxToolOutputBytes) output.resize(limits::kMaxToolOutputBytes);
      json result;
      result["type"] = "user";
      result["toolUseResult"] = "recorded by causegate";
      result["message"] = {{"role", "user"},
                           {"content", json::array({{{"type", "tool_result"},
                                                     {"tool_use_id", "call-" + unique},
                                                     {"content", output},
                                                     {"is_error", event.tool_error}}})}};
      return Dump(call) + Dump(result);
    }
    case ObservedEvent::Kind::kAssistantText: {
      json line;
      line["type"] = "assistant";
      line["message"] = {{"id", "msg-" + unique},
                         {"role", "assistant"},
                         {"content", json::array({{{"type", "text"}, {"text", event.text}}})}};
      return Dump(line);
    }
  }
  return "";
}

Status AppendToSessionLog(const HookRequest& request) {
  if (!request.observed) return Status::Ok();
  const std::string state = StateDirOr(request.state_dir);
  const std::string path = SessionLogPath(state, request.agent, request.session_id, request.cwd);
  if (path.empty()) return Status::Error("session log: neither XDG_STATE_HOME nor HOME is set");
  const std::string dir = path.substr(0, path.rfind('/'));
  if (Status s = EnsureDir(dir); !s.ok()) return s;
  const bool prompt = request.observed->kind == ObservedEvent::Kind::kPrompt;
  if (prompt) DeleteOldLogs(dir);
  const std::string lines = SessionLogLines(*request.observed, UniqueId());

  const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Status::Error(path + ": " + std::strerror(errno));
  Status status = LockWithin(fd, LockMode::kExclusive, kStateLockWait, path);
  if (status.ok()) {
    struct stat st {};
    if (fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) + lines.size() > kMaxSessionLogBytes) {
      status = CutToLastPrompt(fd, path, lines.size());
    }
    if (status.ok()) status = WriteAll(fd, lines, path);
  }
  close(fd);  // releases the lock
  // Every write can push the folder over its total, from this conversation
  // or any other (gate/state_cap.h).
  if (status.ok()) EvictOldestState(state, path);
  return status;
}

Status ReadSessionLog(const std::string& path, evidence::LastTurn* out) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return Status::Error(path + ": " + std::strerror(errno));
  // The lock is the inode's, whichever descriptor the reader then reads through.
  Status status = LockWithin(fd, LockMode::kShared, kStateLockWait, path);
  if (status.ok()) status = evidence::ReadLastTurn(path, evidence::SessionKind::kMain, out);
  close(fd);
  return status;
}

}  // namespace causegate::gate
