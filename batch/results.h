// What `causegate check` found, as plain data every report is rendered
// from, and its JSON form (`--format json`), which `causegate merge` reads
// back so that shards merge into any report. The JSON schema is in
// batch/CHECK.md; a turn's object is rules::VerdictToJson's verdict with the
// turn's place in the file added, so the same fields mean the same thing in
// `explain --format json` and here.
// Tests: tests/unit/batch/results_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
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
  // empty (Compact()), and a TurnList keeps less still (a stub), reading
  // the whole record back from the object when asked (Full()).
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

// The turns of a check. A turn whose object is in the spill file is kept
// as a stub: its file, number, action, whether the baseline knows it, and
// its claims' findings (what sorting, the summary, the exit code and the
// JSON report read), 64 bytes and 4 more a finding; every other field is
// read back from its object when the turn is asked for whole. So what a
// check holds of each judged turn is that stub, not the turn's record. A
// turn given without a spill file (merge, tests) is kept whole.
//
// Asking for a stub's turn whole (operator[], iterating) reads its object
// and parses it (TurnRecord::Full): the text reports do so once per turn.
// One that cannot be read back yields what the stub keeps (the JSON report
// then fails, naming it). Not thread-safe.
class TurnList {
 public:
  class const_iterator;

  TurnList();
  ~TurnList();
  TurnList(const TurnList& other);
  TurnList& operator=(const TurnList& other);
  TurnList(TurnList&& other) noexcept;
  TurnList& operator=(TurnList&& other) noexcept;

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  // A spilled record (json_spill set) becomes a stub, unless the list
  // already holds stubs of another spill file; any other is kept whole.
  void push_back(TurnRecord record);
  // Moves other's turns to the end of this list.
  void Splice(TurnList&& other);

  // Turn i whole.
  TurnRecord operator[](std::size_t i) const;
  TurnRecord front() const { return (*this)[0]; }
  TurnRecord back() const { return (*this)[size() - 1]; }
  const_iterator begin() const;
  const_iterator end() const;

  // What the list keeps of every turn, read without the spill file.
  const std::string& file(std::size_t i) const;
  int turn(std::size_t i) const;
  const std::string& action(std::size_t i) const;
  bool known(std::size_t i) const;
  void set_known(std::size_t i, bool known);
  // As TurnRecord::blocked(), unproven() and flagged().
  bool blocked(std::size_t i) const { return action(i) == "block" && !known(i); }
  bool unproven(std::size_t i) const { return action(i) == "allow-unproven" && !known(i); }
  bool flagged(std::size_t i) const { return action(i) != "allow" && !known(i); }
  int claims(std::size_t i) const;
  // The findings of turn i's unsupported claims, in order.
  std::vector<std::string> unsupported(std::size_t i) const;
  // Turn i's object (TurnRecord::LoadJson), and its size.
  Status LoadJson(std::size_t i, std::string* out) const;
  std::size_t json_bytes(std::size_t i) const;

  // Sorts by (file, turn) and drops repeated turns, keeping the first.
  void Normalize();

 private:
  // A turn: whole, or a stub whose object is in spill_.
  struct Entry {
    std::unique_ptr<TurnRecord> whole;  // null: a stub
    std::int64_t offset = 0;            // the object in spill_
    std::uint32_t size = 0;
    std::uint32_t file = 0;             // in names_
    std::uint32_t action = 0;           // in names_
    int turn = 0;
    int claims = 0;
    bool known = false;
    std::vector<std::uint32_t> unsupported;  // findings, in names_

    Entry() = default;
    Entry(Entry&&) noexcept = default;
    Entry& operator=(Entry&&) noexcept = default;
    Entry(const Entry& other);
    Entry& operator=(const Entry& other);
  };

  std::uint32_t Intern(const std::string& name);
  Entry Stub(const TurnRecord& record);
  void Load(std::size_t i, TurnRecord* out) const;  // turn i whole

  std::shared_ptr<const SpillFile> spill_;  // where the stubs' objects are
  std::vector<std::string> names_;          // files, actions, findings
  std::map<std::string, std::uint32_t, std::less<>> ids_;  // index in names_
  // A deque: grown a block at a time, never copied whole as a vector
  // doubling is, so a check holds its stubs once.
  std::deque<Entry> entries_;
};

class TurnList::const_iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = TurnRecord;
  using difference_type = std::ptrdiff_t;
  using pointer = const TurnRecord*;
  using reference = const TurnRecord&;

  const_iterator(const TurnList* list, std::size_t i) : list_(list), i_(i) {}
  // Valid until the iterator moves.
  const TurnRecord& operator*() const;
  const TurnRecord* operator->() const { return &**this; }
  const_iterator& operator++() {
    ++i_;
    loaded_ = false;
    return *this;
  }
  bool operator==(const const_iterator& other) const { return i_ == other.i_; }
  bool operator!=(const const_iterator& other) const { return i_ != other.i_; }

 private:
  const TurnList* list_;
  std::size_t i_;
  mutable TurnRecord current_;
  mutable bool loaded_ = false;
};

struct CheckResults {
  std::vector<FileRecord> files;    // sorted by path
  TurnList turns;                   // by file, then turn
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
// and turns (a file checked by two shards), keeping the first.
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
