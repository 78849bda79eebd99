// Every turn of a file through the same calls the live hook makes at a
// stop (rules::JudgeTurn, gate::PriorBlocks, rules::Decide). The turns are
// read in file order; each is given a view of the session history as it
// stands (the turns before it), then pushed into it, and its judging is
// handed to the run's queue (batch/work_queue.h), whose results come back
// in the order given. So what a turn is judged with does not depend on
// when, or on which thread, it is judged. The turn's record is
// rules::VerdictToJson's verdict (the
// block reason included: what the agent got), plus the turn's place and
// context, the span of each claim in the final message, and under each
// unsupported claim the tool lines nearest it.
// Tests: tests/unit/batch/check_file_test.cc.
#include "batch/check_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <filesystem>
#include <system_error>
#include <utility>

#include "batch/session_history.h"
#include "batch/work_queue.h"
#include "evidence/nearest_lines.h"
#include "evidence/transcript.h"
#include "gate/gate.h"
#include "rules/message.h"
#include "rules/protocol_steps.h"
#include "rules/reason.h"
#include "rules/verdict.h"
#include "rules/verdict_json.h"

namespace causegate::batch {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kPromptExcerptChars = 200;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string Excerpt(std::string_view text) {
  std::string flat;
  for (const char c : text) {
    if (IsSpace(c)) {
      if (!flat.empty() && flat.back() != ' ') flat.push_back(' ');
    } else {
      flat.push_back(c);
    }
    if (flat.size() > 4 * kPromptExcerptChars) break;
  }
  while (!flat.empty() && flat.back() == ' ') flat.pop_back();
  return rules::Shorten(flat, kPromptExcerptChars);
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The quoted fragments JudgeTurn can look up: long enough, in the part of
// the message it reads.
std::vector<std::string> CitableFragments(const std::string& message) {
  const std::string_view text = std::string_view(message).substr(0, limits::kMaxMessageBytes);
  std::vector<std::string> out;
  for (rules::Fragment& fragment : rules::ParseMessage(text).fragments) {
    if (fragment.long_enough) out.push_back(std::move(fragment.text));
  }
  return out;
}

// The folder a session without a cwd was kept under: Gemini's
// ~/.gemini/tmp/<project>/chats/, Claude Code's ~/.claude/projects/<project>/.
std::string ProjectFromPath(std::string_view path, evidence::TranscriptFormat format) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos) return "";
  std::string_view folder = path.substr(0, slash);
  if (format == evidence::TranscriptFormat::kGeminiChat) {
    if (!EndsWith(folder, "/chats")) return "";
    folder.remove_suffix(6);
  }
  const std::size_t up = folder.find_last_of('/');
  const std::string_view name = up == std::string_view::npos ? folder : folder.substr(up + 1);
  const std::string_view parent = up == std::string_view::npos ? std::string_view() : folder.substr(0, up);
  const bool kept = format == evidence::TranscriptFormat::kGeminiChat ? EndsWith(parent, "/tmp") || parent == "tmp"
                    : format == evidence::TranscriptFormat::kClaudeCode
                        ? EndsWith(parent, "/projects") || parent == "projects"
                        : false;
  return kept ? std::string(name) : "";
}

// The tool lines nearest an unsupported claim, as `causegate explain` shows
// them (evidence/nearest_lines.h): what the agent saw and did not quote.
Json NearestJson(std::string_view sentence, const evidence::Turn& turn) {
  Json out = Json::array();
  for (const evidence::NearLine& line : evidence::NearestOutputLines(sentence, turn.tool_calls)) {
    const evidence::ToolCall& call = turn.tool_calls[line.call];
    out.push_back({{"tool", call.name}, {"command", rules::Shorten(call.command, 200)}, {"call_line", call.line},
                   {"line", line.line}, {"text", rules::Shorten(line.text, 400)}});
  }
  return out;
}

// The context fields of a turn object (batch/CHECK.md): null when the
// transcript does not say.
void AddContext(const std::string& path, evidence::TranscriptFormat format, const evidence::TurnContext& context,
                Json* record) {
  auto set = [record](const char* key, const std::string& text) {
    (*record)[key] = text.empty() ? Json(nullptr) : Json(text);
  };
  set("session_id", context.session_id);
  set("agent", AgentOfFormat(format));
  set("agent_version", context.agent_version);
  set("model", context.model);
  set("started_at", context.started_at);
  set("project", context.cwd.empty() ? ProjectFromPath(path, format) : context.cwd);
}

Status MakeRecord(const std::string& path, evidence::TranscriptFormat format, int index, const evidence::Turn& turn,
                  const rules::Verdict& verdict, const rules::Outcome& outcome, int prior_blocks,
                  const rules::RuleSet& rules, TurnRecord* out) {
  Json record;
  try {
    Json judged = Json::parse(rules::VerdictToJson(verdict, rules, &outcome));
    Json& claims = judged["claims"];
    for (std::size_t i = 0; i < verdict.claims.size() && i < claims.size(); ++i) {
      const rules::Sentence& s = verdict.message.sentences[static_cast<std::size_t>(verdict.claims[i].sentence)];
      const Span span = SentenceSpan(turn.final_message, s.offset, s.text);
      claims[i]["span"] = {span.begin, span.end};
      if (claims[i].value("finding", "") != "supported") claims[i]["nearest"] = NearestJson(s.text, turn);
    }
    record["file"] = path;
    record["turn"] = index + 1;
    AddContext(path, format, turn.context, &record);
    record["prompt_line"] = turn.prompt_line;
    record["final_line"] = turn.final_line;
    record["prompt_excerpt"] = Excerpt(turn.prompt);
    record["final_message"] = turn.final_message;
    record["prior_blocks"] = prior_blocks;
    record["transcript_truncated"] = turn.truncated;
    for (auto& [key, value] : judged.items()) record[key] = std::move(value);
    return ParseTurnRecord(record.dump(-1, ' ', false, Json::error_handler_t::replace), out);
  } catch (const std::exception& e) {
    return Status::Error(path + ": turn " + std::to_string(index + 1) + ": " + e.what());
  }
}

// Moves the record's turn object to the spill file, and drops what only
// the html report reads, which reads it back (batch/results.h). A spill
// file that cannot be written (a full disk) costs memory, not the check.
void Spill(const std::shared_ptr<SpillFile>& spill, TurnRecord* record) {
  std::int64_t offset = 0;
  if (!spill->Append(record->json, &offset).ok()) return;
  record->json_spill = SpillRef{spill, offset, record->json.size()};
  std::string().swap(record->json);
  record->Compact();
}

struct JudgedTurn {
  Status status;  // not ok: the check of the file fails with it
  TurnRecord record;
};

// One turn, as the hook judges it at its stop, with the turns before it
// as `earlier`.
JudgedTurn JudgeOne(const std::string& path, evidence::TranscriptFormat format, int index, const evidence::Turn& turn,
                    HistoryView* earlier, const rules::RuleSet& rules, const CheckOptions& options) {
  JudgedTurn out;
  const rules::Verdict verdict = rules::JudgeTurn(turn, earlier, rules);
  // A turn read back and found changed makes every verdict suspect.
  out.status = earlier->status();
  if (!out.status.ok()) return out;
  const int prior = gate::PriorBlocks(turn, /*continuing=*/false);
  const std::string& last_reason = turn.stop_feedback.empty() ? std::string() : turn.stop_feedback.back();
  const rules::Outcome outcome = rules::Decide(verdict, rules, prior, last_reason, options.loop);
  out.status = MakeRecord(path, format, index, turn, verdict, outcome, prior, rules, &out.record);
  if (out.status.ok() && options.spill != nullptr) Spill(options.spill, &out.record);
  return out;
}

}  // namespace

std::string AgentOfFormat(evidence::TranscriptFormat format) {
  switch (format) {
    case evidence::TranscriptFormat::kClaudeCode: return "claude-code";
    case evidence::TranscriptFormat::kCodexRollout: return "codex";
    case evidence::TranscriptFormat::kGeminiChat: return "gemini";
    case evidence::TranscriptFormat::kCopilotEvents: return "copilot";
    case evidence::TranscriptFormat::kUnknown: break;
  }
  return "";
}

Span SentenceSpan(std::string_view message, std::size_t offset, std::string_view sentence) {
  offset = std::min(offset, message.size());
  const std::size_t max_skipped = 64 + sentence.size();
  std::size_t i = offset;
  std::size_t j = 0;
  std::size_t skipped = 0;
  while (j < sentence.size() && i < message.size() && skipped <= max_skipped) {
    const char a = message[i];
    const char b = sentence[j];
    if (a == b) {
      ++i;
      ++j;
    } else if (IsSpace(a) && (IsSpace(b) || (j > 0 && IsSpace(sentence[j - 1])))) {
      ++i;  // a line break or more white space in the raw text
    } else if (IsSpace(b)) {
      ++j;
    } else {
      ++i;  // markup the sentence text has lost: * _ ` \ entities
      ++skipped;
    }
  }
  if (j == sentence.size()) return Span{offset, i};
  std::size_t end = std::min(message.size(), offset + sentence.size());
  while (end > offset && end < message.size() && (static_cast<unsigned char>(message[end]) & 0xC0) == 0x80) --end;
  return Span{offset, end};
}

FileCheck CheckFile(const std::string& path, const rules::RuleSet& rules, const CheckOptions& options,
                    WorkQueue* queue) {
  FileCheck out;
  out.file.path = path;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  out.file.bytes = ec ? 0 : static_cast<std::int64_t>(size);

  evidence::TranscriptFormat format = evidence::TranscriptFormat::kUnknown;
  if (Status s = evidence::DetectTranscriptFormat(path, &format); !s.ok()) {
    out.file.error = s.message();
    return out;
  }
  out.file.format = evidence::TranscriptFormatName(format);

  // A compaction summary (spec section 3) is no agent's answer: its file is
  // reported with the reason and no turns.
  if (evidence::IsCompactionTranscript(path)) {
    out.file.not_judged = std::string(gate::kCompactionSummaryNote);
    return out;
  }
  std::shared_ptr<const evidence::TurnRereader> rereader;
  std::optional<SessionHistory> history;  // made once the rereader is known, before the first turn
  Status failed = Status::Ok();
  int visited = 0;
  WorkQueue own_queue;  // without a run's queue: every turn judged on this thread
  // Declared after the history: its tasks hold views of it, and its
  // destructor waits for them.
  OrderedTasks<JudgedTurn> tasks(queue != nullptr ? queue : &own_queue, queue != nullptr ? options.turns_in_flight : 1,
                                 [&](JudgedTurn&& judged, const Status& thrown) {
                                   failed = thrown.ok() ? judged.status : thrown.Within(path);
                                   if (!failed.ok()) return false;
                                   out.turns.push_back(std::move(judged.record));
                                   return true;
                                 });
  const auto read = [&](evidence::Turn& turn, int index, const evidence::TurnPlace& place) {
    ++visited;
    if (const std::string_view why = gate::NotJudgedReason(turn); !why.empty()) {
      out.file.not_judged = std::string(why);
      return false;
    }
    if (!history) history.emplace(rereader, options.read_back_bytes, options.spill);
    // Protocol tracking reads the newest turns whole when the prompt follows
    // up on them (rules::LoadDiagnosisTurns); the look-up only what can hold
    // a quote. The view holds the turns before this one, whatever is pushed
    // while it waits to be judged.
    const int whole = rules::FollowUpRule(rules, turn.prompt) >= 0 ? limits::kMaxStepTurnsBack : 0;
    std::shared_ptr<HistoryView> earlier = history->View(CitableFragments(turn.final_message), whole, place);
    history->Push(turn, place);
    auto judged = std::make_shared<const evidence::Turn>(std::move(turn));
    tasks.Submit([&path, format, index, &rules, &options, judged = std::move(judged), earlier = std::move(earlier)] {
      return JudgeOne(path, format, index, *judged, earlier.get(), rules, options);
    });
    return failed.ok();
  };
  const Status s = evidence::ForEachTurnAt(path, evidence::SessionKindOf(path, format), read, &rereader);
  if (failed.ok()) tasks.Finish();
  out.file.turns = static_cast<int>(out.turns.size());
  if (!failed.ok()) {
    out.file.error = failed.message();
  } else if (!s.ok() && !(visited == 0 && evidence::IsNoPromptError(s))) {
    out.file.error = s.message();
  }
  return out;
}

}  // namespace causegate::batch
