// Classifying free text the way the gate reads a final message, without a
// turn around it: is it causal, is it hedged, would the gate take it for an
// assertive causal claim. `causegate classify` streams JSONL through this,
// and bench/quality/ measures the packs with it on outside corpora.
// The command's contract (input, output, errors) is in rules/QUALITY.md.
// Tests: tests/unit/rules/classify_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "rules/rule_set.h"

namespace causegate::rules {

// A text may hold several sentences (rules/message.h splits it exactly as
// it splits a final message, quoted spans masked). Each flag is "some
// sentence is": a text is causal when any sentence is, and a claim when any
// sentence is a claim, as one claim is enough for the gate to judge.
struct TextClass {
  // A claim rule matched, hedged or not: a hedge does not make a cause-effect
  // statement non-causal.
  bool causal = false;
  // A hedge or an uncertainty rule matched: the sentence is marked uncertain.
  bool hedged = false;
  // The claim scorer's decision (rules/claim_scorer.h) for a sentence of a
  // diagnosis turn, read as a plain paragraph: whether the turn is a
  // diagnosis, and the message's structure, are left out.
  bool claim = false;
  // Every sentence rule that matched in any sentence, ascending, once each.
  std::vector<int> rules;
};

TextClass ClassifyText(const RuleSet& rules, std::string_view text);

// "zh" when Han characters make up at least a third of the letters (Han
// plus ASCII letters) of the first kLangSniffBytes of text, else "en".
inline constexpr std::size_t kLangSniffBytes = 4096;
std::string_view DetectLang(std::string_view text);

// One input line longer than this is answered with an error object and
// skipped without being held in memory.
inline constexpr std::size_t kMaxClassifyLineBytes = 8u << 20;

struct ClassifyStats {
  std::int64_t lines = 0;   // input lines answered (blank lines are skipped)
  std::int64_t errors = 0;  // of those, answered with an error object
};

struct LineAnswer {
  std::string json;    // one JSON object, no newline
  bool error = false;  // json is an error object
};

// One input line, {"id": ..., "text": "...", "lang": "en"|"zh"}, to one
// output line:
//   {"id":...,"causal":b,"hedged":b,"claim":b,"rules":["id",...],"lang":"en"}
// ("lang" as given, or detected). A line that is not such an object gives
//   {"id":<id, or null when unknown>,"error":"line N: what"}
// Ill-formed UTF-8 is replaced with U+FFFD before parsing, so a bad byte
// costs no more than the characters it replaces. Never throws.
LineAnswer ClassifyLine(const RuleSet& rules, std::string_view line, std::int64_t line_number);

// Reads JSONL from in until its end and writes one line per non-blank input
// line to out, in order. Memory stays bounded by kMaxClassifyLineBytes
// whatever the input's size; out is flushed whenever in has nothing more
// buffered, so an interactive caller gets each answer as its line is read.
ClassifyStats ClassifyStream(const RuleSet& rules, std::istream& in, std::ostream& out);

}  // namespace causegate::rules
