// What `causegate check` found, as plain data every report is rendered
// from, and its JSON form (`--format json`), which `causegate merge` reads
// back so that shards merge into any report. The JSON schema is in
// batch/CHECK.md; a turn's object is rules::VerdictToJson's verdict with the
// turn's place in the file added, so the same fields mean the same thing in
// `explain --format json` and here.
// Tests: tests/unit/batch/results_test.cc.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "batch/spill_file.h"
#include "evidence/status.h"

namespace causegate::batch {

struct CitationRecord {
  std::string fragment;   // as quoted
  std::string origin;     // inline-code, code-line, quote-line, quoted, evidence-line
  std::string found_in;   // tool-output, self-made-output, model-text, tool-input, user-message, nowhere
  std::string tool;       // the call it was found in ("" when none)
  std::string command;
  std::int64_t call_line = 0;  // transcript line of that call (0: unknown)
  int turns_back = 0;
  std::string excerpt;    // the output line(s) around the match
};

// A line of the turn's tool output near an unsupported claim (evidence/nearest_lines.h).
struct NearRecord {
  std::string tool;
  std::string command;
  std::int64_t line = 0;  // line of that call's output (1-based)
  std::string text;
};

struct ClaimRecord {
  std::string sentence;             // as written, inline markup removed
  std::size_t span_begin = 0;       // the sentence in TurnRecord::final_message,
  std::size_t span_end = 0;         // byte offsets [begin, end)
  std::string rule;                 // claim rule id
  std::string finding;              // supported, fabricated, user-only, no-probe, no-citation
  std::string lang;                 // en, zh
  std::vector<CitationRecord> citations;
  std::vector<NearRecord> nearest;  // unsupported claims only
  bool supported() const { return finding == "supported"; }
};

struct TurnRecord {
  std::string file;
  int turn = 0;                     // 1-based, in file order
  std::int64_t prompt_line = 0;     // transcript lines (1-based; 0: unknown)
  std::int64_t final_line = 0;
  // The turn's context (batch/CHECK.md), "" when the transcript does not say.
  std::string session_id;
  std::string agent;                // claude-code, codex, gemini, copilot
  std::string agent_version;
  std::string model;
  std::string started_at;           // ISO 8601
  std::string project;              // the working folder
  std::string prompt_excerpt;
  // When check spills the turn object (json_spill), the record keeps only
  // what the reports but html read: final_message, reason, and each
  // claim's nearest and its citations' tool, command and excerpt are left
  // empty (Compact()); html reads them back from the object (Full()).
  std::string final_message;
  std::string action;               // allow, block, allow-unproven (rules::ActionName)
  std::string reason;               // what the agent got: the block reason, or
                                    // the user's message when let through unproven
  int prior_blocks = 0;             // blocks the transcript shows before this stop
  int tool_calls = 0;               // calls the turn made
  std::vector<ClaimRecord> claims;
  std::string json;                 // the whole turn object, compact (--format json),
                                    // unless check spilled it (then empty)
  SpillRef json_spill;              // where check spilled it (file null: in json)
  // Flagged, but every unsupported claim is in the baseline (baseline.h):
  // reported as known, failing nothing.
  bool known = false;

  bool blocked() const { return action == "block" && !known; }
  bool unproven() const { return action == "allow-unproven" && !known; }
  // The turn's final message asserts a cause no tool output supports: the
  // gate blocks this stop, or lets it through only because its loop limit
  // is reached. These are the turns that fail a check, unless known.
  bool flagged() const { return action != "allow" && !known; }
  int unsupported() const;
  // The turn object: json, or read back from where it was spilled.
  Status LoadJson(std::string* out) const;
  // Drops what only the html report reads (see final_message). REQUIRES:
  // the object is spilled.
  void Compact();
  // The whole record: this one, or when spilled, parsed again from its
  // object (with known as here).
  Status Full(TurnRecord* out) const;
};

struct FileRecord {
  std::string path;
  std::string format;               // claude-code, codex-rollout ("" when unread)
  std::int64_t bytes = 0;
  int turns = 0;
  std::string error;                // "" unless the file could not be read
  std::string not_judged;           // "" unless the file holds no agent's
                                    // answers (a compaction summary): why
  bool unreadable() const { return !error.empty(); }
};

struct CheckResults {
  std::vector<FileRecord> files;    // sorted by path
  std::vector<TurnRecord> turns;    // by file, then turn
};

struct Summary {
  int files = 0;
  int unreadable = 0;
  int turns = 0;
  int blocked = 0;                  // action block
  int unproven = 0;                 // action allow-unproven
  int known = 0;                    // flagged turns the baseline knows (in neither count above)
  int claims = 0;
  std::int64_t bytes = 0;
  std::map<std::string, int> findings;  // unsupported claims per finding
  int flagged() const { return blocked + unproven; }
  double block_rate() const { return turns > 0 ? static_cast<double>(flagged()) / turns : 0.0; }
};

Summary Summarize(const CheckResults& results);

// Sorts files by path and turns by (file, turn); drops repeated files
// (a file checked by two shards), keeping the first.
void Normalize(CheckResults* results);

// One turn object (see CHECK.md) into a record; keeps the text as json.
Status ParseTurnRecord(std::string_view json_text, TurnRecord* out);

// The JSON document of --format json, handed to write a piece at a time
// (a turn object each), so that spilled turn objects are read back one by
// one. Stops at the first error of write, or of reading an object back.
Status WriteJson(const CheckResults& results, const std::function<Status(std::string_view)>& write);

// The same document as one string. REQUIRES: every spilled turn object can
// be read back (one that cannot is written as null; WriteJson says why).
std::string RenderJson(const CheckResults& results);

// Reads a document RenderJson wrote. source names it in errors.
Status ParseResultsJson(std::string_view text, const std::string& source, CheckResults* out);

}  // namespace causegate::batch
