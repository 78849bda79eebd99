// Tool output that a model wrote (spec: judgement.md section 3): a
// subagent's answer, or a fetch tool's summary of a page. Such output is
// evidence for the agent that called the tool only where that model itself
// quoted its own tool output; anything else in it is reported speech.
// EvidenceIndex (evidence_index.h) applies the rule; this header says which
// tools it concerns and how Claude Code names a subagent's own transcript.
// Tests: tests/unit/evidence/model_output_test.cc.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace causegate::evidence {

enum class ModelAuthor {
  kNone,      // a program printed the output: ordinary evidence
  kSubagent,  // another agent's answer (its own transcript may exist)
  kSummary,   // a model's summary of what a tool fetched
};

// Which kind of model wrote the output of a tool, by the tool's name as the
// transcript readers give it. The one place that list is kept.
ModelAuthor ModelWrittenOutput(std::string_view tool);

// The fragments a model quoted in a text it wrote, in the spec's citation
// forms (section 3 item 1: code spans, fenced and > quoted lines, "double",
// “curly” and 「corner」 quotes, Evidence: lines), as written. rules/ owns
// that extractor (rules/message.h) and hands it in, so the forms a final
// message cites by and the forms a subagent quoted by are read by one
// parser. Must not throw.
using QuotedSpanFinder = std::function<std::vector<std::string>(std::string_view text)>;

// The subagent id Claude Code appends to an Agent result, on a line of its
// own: "agentId: a6b36093e5f4b046e (use SendMessage ...)". The last such
// line counts (the answer above it is the subagent's own text). "" when
// there is none, or when the id is not a plain name ([A-Za-z0-9_-], at most
// 128 characters), so it can never name a file outside the folder.
std::string SubagentIdIn(std::string_view output);

// Where Claude Code keeps the subagent transcripts of the session that
// transcript_path belongs to: <dir>/<session>/subagents for a session file
// <dir>/<session>.jsonl, and the file's own folder for a file already in a
// subagents folder: a subagent's own subagents are looked for beside it (a
// choice; not measured). "" for an empty path.
std::string SubagentFolderOf(std::string_view transcript_path);

// <folder>/agent-<id>.jsonl.
std::string SubagentTranscriptPath(std::string_view folder, std::string_view agent_id);

}  // namespace causegate::evidence
