// One loop policy across agents (rules/loop_policy.h decides; this file
// counts). Each agent's signal becomes a number of blocks already sent in
// this turn, and the largest count any signal gives wins:
//
//   transcript / session log  "Stop hook feedback" lines since the prompt
//                             (Claude Code; the session logs of Cursor and
//                             Copilot; Gemini's retry prompts)
//   stop_hook_active          at least 1 (Claude Code, Codex, Gemini, Copilot)
//   Cursor loop_count         at least 1 when > 0 (it counts the whole
//                             conversation, every hook's follow-ups)
//   the counter below         Codex, Gemini, Cursor, Copilot
//
// Then the limit, the user's warning and the audit record are the same
// for every agent.
#include "gate/loop_state.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gate/gate.h"
#include "gate/state_cap.h"
#include "gate/state_dir.h"
#include "rules/reason.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

long long NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string CounterPath(const HookRequest& request) {
  return LoopStatePath(StateDirOr(request.state_dir), request.agent, request.session_id, request.cwd);
}

// Writes text to a new temporary file beside path (a name no other
// process, on this machine or another sharing the folder, can pick) and
// renames it over path.
Status ReplaceFile(const std::string& path, std::string_view text) {
  std::string tmp = path + ".XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) return Status::Error(tmp + ": " + std::strerror(errno));
  bool written = true;
  for (std::string_view rest = text; written && !rest.empty();) {
    const ssize_t n = write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    written = n > 0;
    if (written) rest.remove_prefix(static_cast<std::size_t>(n));
  }
  if (close(fd) != 0) written = false;
  if (!written) {
    std::remove(tmp.c_str());
    return Status::Error(tmp + ": cannot write");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return Status::Error(path + ": cannot replace");
  }
  return Status::Ok();
}

}  // namespace

bool UsesLoopCounter(Agent agent) {
  return agent == Agent::kCodex || agent == Agent::kGemini || agent == Agent::kCursor || agent == Agent::kCopilot;
}

std::string TurnKey(const evidence::Turn& turn) { return HashHex(turn.prompt); }

std::string LoopStatePath(const std::string& state, Agent agent, std::string_view session_id,
                          std::string_view cwd) {
  if (state.empty()) return "";
  const std::string key = session_id.empty() ? "cwd-" + HashHex(cwd) : SafeFileName(session_id);
  return state + "/loop/" + AgentName(agent) + "-" + key + ".json";
}

LoopState LoadLoopState(const std::string& path, const std::string& turn_key, long long now_seconds) {
  LoopState state;
  if (path.empty()) return state;
  std::ifstream in(path, std::ios::binary);
  if (!in) return state;
  std::string text;
  text.resize(4096);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return state;
  const auto turn = doc.find("turn");
  const auto blocks = doc.find("blocks");
  const auto updated = doc.find("updated");
  if (turn == doc.end() || !turn->is_string() || *turn != turn_key) return state;
  if (blocks == doc.end() || !blocks->is_number_integer()) return state;
  if (updated == doc.end() || !updated->is_number_integer() ||
      now_seconds - updated->get<long long>() > kLoopStateTtlSeconds) {
    return state;
  }
  state.blocks = std::clamp(blocks->get<int>(), 0, 1000);
  const auto judged_bytes = doc.find("judged_bytes");
  const auto judged_hash = doc.find("judged_hash");
  if (judged_bytes != doc.end() && judged_bytes->is_number_unsigned() && judged_hash != doc.end() &&
      judged_hash->is_string()) {
    state.judged_bytes = judged_bytes->get<std::size_t>();
    state.judged_hash = judged_hash->get<std::string>();
  }
  return state;
}

int LoadLoopBlocks(const std::string& path, const std::string& turn_key, long long now_seconds) {
  return LoadLoopState(path, turn_key, now_seconds).blocks;
}

std::string LoopStatePathFor(const HookRequest& request) { return CounterPath(request); }

Status LockLoopState(const HookRequest& request, SessionStateLock* lock) {
  const std::string path = CounterPath(request);
  if (path.empty()) return Status::Ok();  // no counter to guard (RecordDecision says so)
  // path is STATE/loop/<file>.
  const std::string state = std::filesystem::path(path).parent_path().parent_path().string();
  return SessionStateLock::Acquire(state, std::filesystem::path(path).filename().string(), lock);
}

Status StoreLoopBlocks(const std::string& path, const std::string& turn_key, int blocks, long long now_seconds,
                       std::string_view judged) {
  if (path.empty()) return Status::Error("loop counter: neither XDG_STATE_HOME nor HOME is set");
  if (blocks <= 0) {
    if (std::remove(path.c_str()) != 0 && errno != ENOENT) return Status::Error(path + ": cannot remove");
    return Status::Ok();
  }
  if (Status s = EnsureDir(path.substr(0, path.rfind('/'))); !s.ok()) return s;
  json doc = {{"turn", turn_key}, {"blocks", blocks}, {"updated", now_seconds}};
  if (!judged.empty()) {
    doc["judged_bytes"] = judged.size();
    doc["judged_hash"] = HashHex(judged);
  }
  if (Status s = ReplaceFile(path, doc.dump() + "\n"); !s.ok()) return s;
  // path is STATE/loop/<file>: the counters count towards the folder's total.
  EvictOldestState(std::filesystem::path(path).parent_path().parent_path().string(), path);
  return Status::Ok();
}

int PriorBlocksFor(const HookRequest& request, const evidence::Turn& turn) {
  int prior = PriorBlocks(turn, request.stop_hook_active);
  if (request.loop_count && *request.loop_count > 0) prior = std::max(prior, 1);
  if (UsesLoopCounter(request.agent)) {
    prior = std::max(prior, LoadLoopBlocks(CounterPath(request), TurnKey(turn), NowSeconds()));
  }
  return prior;
}

void RecordDecision(const HookRequest& request, const evidence::Turn& turn, const rules::Verdict& verdict,
                    const rules::Outcome& outcome, int prior_blocks) {
  if (UsesLoopCounter(request.agent)) {
    const int blocks = outcome.action == rules::Action::kBlock ? outcome.block_number : 0;
    // Gemini's next prompt_response starts with this one (gate/gemini.cc).
    const std::string_view judged = request.agent == Agent::kGemini && request.last_assistant_message
                                        ? std::string_view(*request.last_assistant_message)
                                        : std::string_view();
    if (Status s = StoreLoopBlocks(CounterPath(request), TurnKey(turn), blocks, NowSeconds(), judged); !s.ok()) {
      spdlog::warn("loop counter not kept: {}", s.message());
    }
  }
  if (outcome.action != rules::Action::kAllowUnproven) return;
  spdlog::warn("{}", UnprovenAuditRecord(request, verdict, prior_blocks));
  const bool answer_carries_warning =
      !(request.agent == Agent::kCursor || (request.agent == Agent::kCopilot && request.camel_case));
  if (!answer_carries_warning) spdlog::warn("{}", outcome.system_message);
}

std::string UnprovenAuditRecord(const HookRequest& request, const rules::Verdict& verdict, int prior_blocks) {
  json record;
  record["audit"] = "allow-unproven";
  record["agent"] = AgentName(request.agent);
  record["event"] = request.event;
  record["session_id"] = request.session_id;
  if (!request.turn_id.empty()) record["turn_id"] = request.turn_id;
  record["prior_blocks"] = prior_blocks;
  record["unsupported"] = verdict.unsupported();
  json claims = json::array();
  for (const rules::Claim& claim : verdict.claims) {
    if (claim.finding == rules::Finding::kSupported) continue;
    const auto index = static_cast<std::size_t>(claim.sentence);
    const std::string sentence = index < verdict.message.sentences.size() ? verdict.message.sentences[index].text : "";
    claims.push_back({{"finding", rules::FindingName(claim.finding)}, {"sentence", rules::Shorten(sentence, 200)}});
  }
  record["claims"] = std::move(claims);
  return record.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace causegate::gate
