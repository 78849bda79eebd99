// Judging every turn of one saved transcript with the verdict the live hook
// would have given at that turn's stop: the turn is judged with the turns
// before it as its history (batch/session_history.h), and the loop guard
// is applied as the hook applies it, counting the gate's own "Stop hook
// feedback" (or Codex <hook_prompt>) lines in the turn (gate::PriorBlocks).
// A few turns are in memory at a time (one per thread judging, and those
// read ahead for them), plus the history's places and filters (folded, for
// a large file, their words in the spill file); earlier turns are read
// again from the file when a quote needs them.
//
// A Claude Code file named agent-*.jsonl is a subagent's own transcript and
// is read as one (its task prompt is its prompt); every other file as a
// session. A compaction summary (a file named agent-acompact-*.jsonl, or
// one whose prompt line carries an acompact-* agentId) is not judged: no
// turns, and FileRecord::not_judged says why. A file with no prompt at
// all is read, with no turns; a file that
// cannot be opened, or is of no format causegate knows, is unreadable and
// carries the reason.
// Tests: tests/unit/batch/check_file_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "batch/results.h"
#include "batch/work_queue.h"
#include "evidence/limits.h"
#include "evidence/transcript.h"
#include "rules/loop_policy.h"
#include "rules/rule_set.h"

namespace causegate::batch {

struct CheckOptions {
  rules::LoopPolicy loop;
  // How far back from a turn's end its look-up reaches: the hook's bound
  // (batch/session_history.h).
  std::int64_t read_back_bytes = static_cast<std::int64_t>(limits::kMaxScanBackBytes);
  // Turns of one file given to a run's queue and not yet reported: read
  // ahead of the oldest one still being judged (batch/work_queue.h).
  std::size_t turns_in_flight = 1;
  // Where each turn's JSON object goes as it is judged (TurnRecord::json
  // stays empty and the record is compact, TurnRecord::Compact), and the
  // gram filters of a large file's earlier turns (batch/session_history.h);
  // null keeps them in memory.
  std::shared_ptr<SpillFile> spill;
};

struct FileCheck {
  FileRecord file;
  TurnList turns;  // stubs, when spilled (options.spill)
};

// Thread-safe for concurrent calls sharing one RuleSet. The turns are read
// on the calling thread and judged on queue's threads (batch/work_queue.h;
// null: on the calling thread), at most options.turns_in_flight at a time;
// what comes back does not depend on which threads judged them.
FileCheck CheckFile(const std::string& path, const rules::RuleSet& rules, const CheckOptions& options,
                    WorkQueue* queue = nullptr);

// The agent a transcript format is written by, named as the hook names it
// (`hook --agent`, the daemon's metrics): claude-code, codex, gemini,
// copilot; "" for kUnknown.
std::string AgentOfFormat(evidence::TranscriptFormat format);

// [begin, end) of a sentence in the raw final message, given where it
// starts and its text with inline markup removed (rules/message.h):
// the raw text is walked along the sentence, skipping markup characters.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
};
Span SentenceSpan(std::string_view message, std::size_t offset, std::string_view sentence);

}  // namespace causegate::batch
