// Claude Code transcripts into turns. Lines are classified one at a time
// (claude_line.cc); a turn is the records from one real prompt up to the
// next, assembled in file order by TurnBuilder whichever way the file was
// read:
//
// - ReadLastTurn reads backwards (line_reader.cc), keeping the records it
//   passes, until it meets a real prompt; the records are then replayed in
//   file order. The reader is handed to the History it returns, which goes
//   on backwards one turn per LoadOlder call. Reading backwards, a line's
//   number is known only once the reader has reached the start of the file
//   (a small file, or a History read to its end); until then line fields
//   are 0 rather than an expensive count of the whole file.
// - ForEachTurn reads forwards and hands each turn out as soon as the next
//   prompt starts, so memory follows the largest turn. It notes where each
//   turn's lines start and end, and FileTurnRereader replays those lines
//   through a TurnBuilder again: the same lines build the same turn.
//
// The final message is the text of the last API message (message.id) that
// has text; Claude Code writes one content block per line, so a message is
// gathered across lines. Tool results are paired to calls by tool_use_id.
//
// Lines are classified by the file's format (DetectTranscriptFormat): Claude
// Code lines by claude_line.cc (ForEachTurn reads tool-result lines with
// simdjson, claude_fast_line.cc), Codex CLI rollouts by codex_rollout.cc;
// the turn assembly is the same for both.
// Tests: tests/unit/evidence/transcript_test.cc, codex_rollout_test.cc.
#include "evidence/transcript.h"

#include <spdlog/spdlog.h>

#include <deque>
#include <iterator>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "evidence/claude_fast_line.h"
#include "evidence/claude_line.h"
#include "evidence/codex_rollout.h"
#include "evidence/copilot_transcript.h"
#include "evidence/gemini_transcript.h"
#include "evidence/limits.h"
#include "evidence/line_cache.h"
#include "evidence/line_reader.h"
#include "evidence/model_output.h"
#include "evidence/utf8.h"

namespace causegate::evidence {
namespace {

bool IsBlank(std::string_view text) {
  for (const char c : text) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

// The classifier for a file's lines: its format decides (transcript_format.cc).
struct LineParser {
  TranscriptFormat format = TranscriptFormat::kClaudeCode;
  SessionKind kind = SessionKind::kMain;
  CodexPrompts prompts = CodexPrompts::kEvents;

  // Tool results through simdjson, for the last turn too: profiling the
  // daemon showed nlohmann's parse of the turn's ~20 KB of tool-result
  // lines at 1.8 M of the 4.8 M instructions of a whole verdict.
  LineRecord operator()(std::string_view text) const {
    if (format == TranscriptFormat::kCodexRollout) return ParseCodexLine(text, prompts);
    if (format == TranscriptFormat::kCopilotEvents) return ParseCopilotEventLine(text);
    return ParseClaudeLineFast(text, kind);
  }

  // Which parser this is, for the line cache: lines read by another
  // format's or kind's parser are other entries.
  std::uint64_t salt() const {
    return static_cast<std::uint64_t>(format) | static_cast<std::uint64_t>(kind) << 8 |
           static_cast<std::uint64_t>(prompts) << 16;
  }
};

// Codex writes a typed prompt once per event shape in some versions
// (item_completed UserMessage, then user_message): the second, with the
// same text and nothing between, is the same prompt, not a turn.
bool IsPromptEcho(const LineParser& parse, bool previous_turn_empty, const std::string& previous_prompt,
                  const std::string& prompt) {
  return parse.format == TranscriptFormat::kCodexRollout && previous_turn_empty && previous_prompt == prompt;
}

// A message without an id (older or foreign writers) stands alone.
void EnsureMessageId(LineRecord* rec, std::int64_t unique) {
  if (rec->kind == LineRecord::Kind::kAssistant && rec->message_id.empty()) {
    rec->message_id = "\x01line" + std::to_string(unique);
  }
}

// One non-blank line of the file as its record, numbered: a line past the
// length limit is unreadable. The backward scan, ForEach and the rereader all
// read through this, so a turn read again is built from the same records.
LineRecord RecordOf(const RawLine& raw, const LineParser& parse) {
  LineRecord rec;
  if (raw.too_long) {
    rec.kind = LineRecord::Kind::kUnreadable;
  } else {
    // Kept between stops when the line cache is on (daemons).
    rec = ParseKept(parse.salt(), raw.text, [&] { return parse(raw.text); });
  }
  rec.line = raw.number;
  EnsureMessageId(&rec, raw.number);
  return rec;
}

class TurnBuilder {
 public:
  // before: what the lines before the prompt said of the session
  // (ForEachTurn); the turn's own lines add to it.
  explicit TurnBuilder(LineRecord prompt, const LineFacts& before = LineFacts()) : facts_(before) {
    turn_.prompt = std::move(prompt.text);
    turn_.prompt_line = prompt.line;
    turn_.compaction_summary = prompt.compaction_agent;
    AbsorbFacts(prompt.facts, &facts_);
    turn_.context.started_at = prompt.facts.timestamp;
  }

  void Add(LineRecord rec) {
    AbsorbFacts(rec.facts, &facts_);
    switch (rec.kind) {
      case LineRecord::Kind::kStopFeedback:
        turn_.stop_feedback.push_back(std::move(rec.text));
        break;
      case LineRecord::Kind::kAssistant:
        AddAssistant(&rec);
        break;
      case LineRecord::Kind::kToolResults:
        for (ToolResult& result : rec.results) {
          const auto it = by_id_.find(result.tool_use_id);
          if (it == by_id_.end() || it->second->has_result) continue;
          it->second->output = std::move(result.output);
          it->second->is_error = result.is_error;
          it->second->has_result = true;
        }
        break;
      case LineRecord::Kind::kIgnored:
      case LineRecord::Kind::kUnreadable:
      case LineRecord::Kind::kPrompt:
        break;
    }
  }

  // True while nothing but the prompt is in the turn.
  bool empty() const { return calls_.empty() && texts_.empty() && turn_.stop_feedback.empty(); }
  const std::string& prompt() const { return turn_.prompt; }

  Turn Finish() && {
    turn_.context.session_id = std::move(facts_.session_id);
    turn_.context.agent_version = std::move(facts_.agent_version);
    turn_.context.model = std::move(facts_.model);
    turn_.context.cwd = std::move(facts_.cwd);
    turn_.tool_calls.assign(std::make_move_iterator(calls_.begin()),
                            std::make_move_iterator(calls_.end()));
    for (Text& text : texts_) {
      if (text.message != last_text_message_) {
        turn_.narration.push_back(std::move(text.text));
        continue;
      }
      if (turn_.final_message.empty()) {
        turn_.final_line = text.line;
      } else {
        turn_.final_message += "\n\n";
      }
      turn_.final_message += text.text;
    }
    if (turn_.final_message.size() > limits::kMaxMessageBytes) {
      turn_.final_message.resize(Utf8Prefix(turn_.final_message, limits::kMaxMessageBytes).size());
    }
    return std::move(turn_);
  }

 private:
  struct Text {
    std::size_t message;
    std::string text;
    std::int64_t line;
  };

  void AddAssistant(LineRecord* rec) {
    for (AssistantBlock& block : rec->blocks) {
      if (block.kind == AssistantBlock::Kind::kText) {
        const auto [it, added] = message_index_.try_emplace(rec->message_id, message_index_.size());
        texts_.push_back(Text{it->second, std::move(block.text), rec->line});
        last_text_message_ = it->second;
      } else {
        block.call.line = rec->line;
        AddCall(std::move(block.call));
      }
    }
  }

  void AddCall(ToolCall call) {
    calls_.push_back(std::move(call));
    ToolCall* added = &calls_.back();
    if (!added->id.empty()) by_id_[added->id] = added;
    if (calls_.size() > limits::kMaxToolCallsPerTurn) {
      // Keep the latest calls: they are what the final message speaks of.
      const auto it = by_id_.find(calls_.front().id);
      if (it != by_id_.end() && it->second == &calls_.front()) by_id_.erase(it);
      calls_.pop_front();
    }
  }

  Turn turn_;
  LineFacts facts_;
  std::deque<ToolCall> calls_;  // deque: pointers in by_id_ stay valid
  std::unordered_map<std::string, ToolCall*> by_id_;
  std::vector<Text> texts_;
  std::unordered_map<std::string, std::size_t> message_index_;
  std::size_t last_text_message_ = static_cast<std::size_t>(-1);
};

// What a record costs in memory while its turn is assembled.
std::size_t RecordBytes(const LineRecord& rec) {
  std::size_t bytes = sizeof(LineRecord) + rec.text.size() + rec.message_id.size();
  for (const AssistantBlock& b : rec.blocks) {
    bytes += sizeof(AssistantBlock) + b.text.size() + b.call.id.size() + b.call.name.size() + b.call.input.size() +
             b.call.command.size() + b.call.output.size();
  }
  for (const ToolResult& r : rec.results) bytes += sizeof(ToolResult) + r.tool_use_id.size() + r.output.size();
  return bytes;
}

// Walks a file backwards one turn at a time. A turn keeps its newest
// records up to max_turn_bytes (limits::kMaxTurnBytes); older ones are
// read past, to find the prompt, but not kept, so memory stays bounded
// however large the turn. The final message and the calls it speaks of
// are the newest records.
class BackwardScanner {
 public:
  BackwardScanner(std::unique_ptr<ReverseLineReader> reader, LineParser parse,
                  std::size_t max_turn_bytes = limits::kMaxTurnBytes)
      : reader_(std::move(reader)), parse_(parse), max_turn_bytes_(max_turn_bytes) {}

  // Collects the records back to the previous real prompt and builds the
  // turn. Returns false at the start of the file (records before the
  // session's first prompt are dropped) or on a read error (status()).
  bool NextTurn(Turn* turn) {
    std::vector<LineRecord> records;  // newest first
    std::size_t kept_bytes = 0;
    std::int64_t dropped = 0;  // once one record does not fit, no older one is kept
    RawLine raw;
    while (reader_->Prev(&raw)) {
      if (!raw.too_long && IsBlank(raw.text)) continue;
      LineRecord rec = RecordOf(raw, parse_);
      if (!seen_last_line_) {
        seen_last_line_ = true;
        last_line_unreadable_ = rec.kind == LineRecord::Kind::kUnreadable;
      }
      if (rec.kind == LineRecord::Kind::kIgnored || rec.kind == LineRecord::Kind::kUnreadable) {
        continue;
      }
      if (rec.kind != LineRecord::Kind::kPrompt) {
        const std::size_t bytes = RecordBytes(rec);
        if (dropped > 0 || kept_bytes + bytes > max_turn_bytes_) {
          ++dropped;
          continue;
        }
        kept_bytes += bytes;
        records.push_back(std::move(rec));
        continue;
      }
      // Read backwards, the echo is the earlier line, met with no records
      // after it and the newer turn's prompt.
      if (have_newer_prompt_ && IsPromptEcho(parse_, records.empty(), newer_prompt_, rec.text)) continue;
      have_newer_prompt_ = true;
      newer_prompt_ = rec.text;
      if (dropped > 0) {
        spdlog::debug("{}: turn kept to its newest {} bytes; {} older record(s) of it dropped", reader_->path(),
                      kept_bytes, dropped);
      }
      const std::optional<std::int64_t> total = reader_->TotalLines();
      auto number = [&total](std::int64_t from_end) -> std::int64_t {
        return total ? *total - from_end + 1 : 0;
      };
      rec.line = number(rec.line);
      TurnBuilder builder(std::move(rec));
      for (auto it = records.rbegin(); it != records.rend(); ++it) {
        it->line = number(it->line);
        builder.Add(std::move(*it));
      }
      *turn = std::move(builder).Finish();
      return true;
    }
    return false;
  }

  const Status& status() const { return reader_->status(); }
  const std::string& path() const { return reader_->path(); }
  bool last_line_unreadable() const { return last_line_unreadable_; }

 private:
  std::unique_ptr<ReverseLineReader> reader_;
  LineParser parse_;
  std::size_t max_turn_bytes_;
  bool seen_last_line_ = false;
  bool last_line_unreadable_ = false;
  bool have_newer_prompt_ = false;
  std::string newer_prompt_;  // the prompt of the turn last built
};

class TranscriptHistory final : public History {
 public:
  explicit TranscriptHistory(BackwardScanner scanner) : scanner_(std::move(scanner)) {}

  bool LoadOlder(PastTurn* out) override {
    if (done_) return false;
    Turn turn;
    if (!scanner_.NextTurn(&turn)) {
      done_ = true;
      if (!scanner_.status().ok()) {
        spdlog::warn("earlier turns not read: {}", scanner_.status().message());
      }
      return false;
    }
    ++turns_back_;
    out->prompt = std::move(turn.prompt);
    out->tool_calls = std::move(turn.tool_calls);
    for (ToolCall& call : out->tool_calls) call.turns_back = turns_back_;
    out->turns_back = turns_back_;
    return true;
  }

 private:
  BackwardScanner scanner_;
  int turns_back_ = 0;
  bool done_ = false;
};

// Claude Code keeps a session's subagent transcripts in a folder beside it.
std::string SubagentFolderFor(const std::string& path, const LineParser& parse) {
  return parse.format == TranscriptFormat::kClaudeCode ? SubagentFolderOf(path) : "";
}

// *no_prompt: the file was read and holds no prompt.
Status ReadLast(const std::shared_ptr<const TranscriptFile>& file, const LineParser& parse, LastTurn* out,
                bool* no_prompt) {
  const std::string& path = file->path();
  BackwardScanner scanner(std::make_unique<ReverseLineReader>(file), parse);
  Turn turn;
  if (!scanner.NextTurn(&turn)) {
    if (!scanner.status().ok()) return scanner.status();
    *no_prompt = true;
    return NoPromptError(path);
  }
  turn.truncated = scanner.last_line_unreadable();
  turn.subagent_folder = SubagentFolderFor(path, parse);
  out->turn = std::move(turn);
  out->history = std::make_unique<TranscriptHistory>(std::move(scanner));
  return Status::Ok();
}

// Reads the lines of one turn's place again through the same classifier
// and TurnBuilder as ForEach: the same lines, in the same order, numbered
// from the place's line, build the same turn.
class FileTurnRereader final : public TurnRereader {
 public:
  FileTurnRereader(std::shared_ptr<const TranscriptFile> file, LineParser parse, std::string subagent_folder)
      : file_(std::move(file)), parse_(parse), subagent_folder_(std::move(subagent_folder)) {}

  Status Read(const TurnPlace& place, Turn* out) const override {
    ForwardLineReader reader(file_, LineRange{place.begin, place.end, place.line});
    std::optional<TurnBuilder> builder;
    RawLine raw;
    while (reader.Next(&raw)) {
      if (!raw.too_long && IsBlank(raw.text)) continue;
      LineRecord rec = RecordOf(raw, parse_);
      // The place starts at its prompt, and the next prompt is past its end.
      if ((rec.kind == LineRecord::Kind::kPrompt) == builder.has_value()) return Changed(place);
      if (!builder) {
        builder.emplace(std::move(rec));
      } else {
        builder->Add(std::move(rec));
      }
    }
    if (!reader.status().ok()) return reader.status();
    if (!builder) return Changed(place);
    *out = std::move(*builder).Finish();
    out->subagent_folder = subagent_folder_;
    return Status::Ok();
  }

  const std::string& path() const override { return file_->path(); }
  std::int64_t file_bytes() const override { return file_->size(); }

 private:
  Status Changed(const TurnPlace& place) const {
    return Status::Error(file_->path() + ": line " + std::to_string(place.line) +
                         ": the turn read there before is not there now (was the file rewritten?)");
  }

  std::shared_ptr<const TranscriptFile> file_;
  LineParser parse_;
  std::string subagent_folder_;
};

Status ForEach(const std::string& path, const LineParser& parse, const PlacedTurnVisitor& visit, bool* no_prompt,
               std::shared_ptr<const TurnRereader>* rereader) {
  std::unique_ptr<TranscriptFile> opened;
  if (Status s = TranscriptFile::Open(path, &opened); !s.ok()) return s;
  const std::shared_ptr<const TranscriptFile> file = std::move(opened);
  ForwardLineReader reader(file, LineRange{0, file->size(), 1});
  const std::string subagent_folder = SubagentFolderFor(path, parse);
  if (rereader != nullptr) *rereader = std::make_shared<FileTurnRereader>(file, parse, subagent_folder);
  std::optional<TurnBuilder> current;
  TurnPlace place;
  LineFacts facts;  // the session so far, for the context of each turn
  int index = 0;
  bool last_line_unreadable = false;
  RawLine raw;
  while (reader.Next(&raw)) {
    if (!raw.too_long && IsBlank(raw.text)) continue;
    LineRecord rec = RecordOf(raw, parse);
    last_line_unreadable = rec.kind == LineRecord::Kind::kUnreadable;
    if (rec.kind == LineRecord::Kind::kPrompt) {
      const LineFacts prompt_facts = rec.facts;
      if (current && IsPromptEcho(parse, current->empty(), current->prompt(), rec.text)) {
        current.emplace(std::move(rec), facts);  // the later line, as read backwards
        place = TurnPlace{raw.offset, 0, raw.number};
        AbsorbFacts(prompt_facts, &facts);
        continue;
      }
      if (current) {
        Turn turn = std::move(*current).Finish();
        turn.subagent_folder = subagent_folder;
        current.reset();
        place.end = raw.offset;
        if (!visit(turn, index++, place)) return Status::Ok();
      }
      current.emplace(std::move(rec), facts);
      place = TurnPlace{raw.offset, 0, raw.number};
      AbsorbFacts(prompt_facts, &facts);
      continue;
    }
    AbsorbFacts(rec.facts, &facts);
    if (current) {
      current->Add(std::move(rec));
    }
  }
  if (!reader.status().ok()) return reader.status();
  if (!current) {
    *no_prompt = true;
    return NoPromptError(path);
  }
  Turn turn = std::move(*current).Finish();
  turn.truncated = last_line_unreadable;
  turn.subagent_folder = subagent_folder;
  place.end = file->size();
  visit(turn, index, place);
  return Status::Ok();
}

// Gemini CLI chat files and Copilot CLI events carry the gate's reason back
// as a user message; every reason starts with "causegate".
ChatReadOptions GeminiOptions() {
  ChatReadOptions options;
  options.is_feedback = [](std::string_view text) { return text.rfind("causegate", 0) == 0; };
  return options;
}

}  // namespace

bool IsCompactionAgent(std::string_view agent_id) {
  if (agent_id.rfind("agent-", 0) == 0) agent_id.remove_prefix(6);
  return agent_id.rfind("acompact-", 0) == 0;
}

namespace {

std::string_view FileName(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

bool IsCompactionTranscript(std::string_view path) { return FileName(path).rfind("agent-acompact-", 0) == 0; }

SessionKind SessionKindOf(std::string_view path, TranscriptFormat format) {
  return format == TranscriptFormat::kClaudeCode && FileName(path).rfind("agent-", 0) == 0 ? SessionKind::kSubagent
                                                                                           : SessionKind::kMain;
}

Status ReadLastTurn(const std::string& path, SessionKind kind, LastTurn* out) {
  // Opened once: peeked at for its format, then read from its end (both
  // up to the size it had when opened).
  std::unique_ptr<TranscriptFile> opened;
  if (Status s = TranscriptFile::Open(path, &opened); !s.ok()) return s;
  const std::shared_ptr<const TranscriptFile> file(std::move(opened));
  LineParser parse;
  if (Status s = DetectTranscriptFormat(file, &parse.format); !s.ok()) return s;
  if (parse.format == TranscriptFormat::kUnknown) parse.format = TranscriptFormat::kClaudeCode;
  if (parse.format == TranscriptFormat::kGeminiChat) return ReadGeminiLastTurn(path, GeminiOptions(), out);
  parse.kind = kind;
  bool no_prompt = false;
  Status s = ReadLast(file, parse, out, &no_prompt);
  if (no_prompt && parse.format == TranscriptFormat::kCodexRollout) {
    // A rollout from before Codex recorded user_message events.
    parse.prompts = CodexPrompts::kMessages;
    s = ReadLast(file, parse, out, &no_prompt);
  }
  if (s.ok() && IsCompactionTranscript(path)) out->turn.compaction_summary = true;
  return s;
}

Status ForEachTurnAt(const std::string& path, SessionKind kind, const PlacedTurnVisitor& visit,
                     std::shared_ptr<const TurnRereader>* rereader) {
  if (rereader != nullptr) rereader->reset();
  LineParser parse;
  if (Status s = DetectTranscriptFormat(path, &parse.format); !s.ok()) return s;
  if (parse.format == TranscriptFormat::kUnknown) parse.format = TranscriptFormat::kClaudeCode;
  if (parse.format == TranscriptFormat::kGeminiChat) {
    return ForEachGeminiTurn(path, GeminiOptions(),
                             [&visit](Turn& turn, int index) { return visit(turn, index, TurnPlace()); });
  }
  parse.kind = kind;
  // A compaction summary's file name marks each of its turns.
  const bool compaction = IsCompactionTranscript(path);
  const auto marked = [&visit](Turn& turn, int index, const TurnPlace& place) {
    turn.compaction_summary = true;
    return visit(turn, index, place);
  };
  const PlacedTurnVisitor visit_each = compaction ? PlacedTurnVisitor(marked) : visit;
  bool no_prompt = false;
  Status s = ForEach(path, parse, visit_each, &no_prompt, rereader);
  if (no_prompt && parse.format == TranscriptFormat::kCodexRollout) {
    parse.prompts = CodexPrompts::kMessages;
    s = ForEach(path, parse, visit_each, &no_prompt, rereader);
  }
  return s;
}

Status ForEachTurn(const std::string& path, SessionKind kind,
                   const std::function<bool(const Turn&, int index)>& visit) {
  return ForEachTurnAt(
      path, kind, [&visit](Turn& turn, int index, const TurnPlace&) { return visit(turn, index); }, nullptr);
}

namespace {
constexpr std::string_view kNoPrompt = ": no user prompt found";
}  // namespace

Status NoPromptError(const std::string& path) { return Status::Error(path + std::string(kNoPrompt)); }

bool IsNoPromptError(const Status& s) {
  const std::string& m = s.message();
  return !s.ok() && m.size() >= kNoPrompt.size() && m.compare(m.size() - kNoPrompt.size(), kNoPrompt.size(), kNoPrompt) == 0;
}

}  // namespace causegate::evidence
