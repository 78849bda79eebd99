// Prose scanning below Markdown, on the rendered text of one prose block
// (inline markup already gone, line breaks as '\n'): quoted spans, Evidence
// lines and sentence boundaries, as spec/judgement.md sections 2 and 3 need
// them. Positions are byte offsets into that text. The text is UTF-8 and may
// be invalid; nothing here fails, and work is linear (times log n) in its
// size. message.cc maps the results back to the message.
// Tests: tests/unit/rules/sentence_split_test.cc.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace causegate::rules {

// Half-open byte range [begin, end).
struct TextRange {
  std::size_t begin = 0;
  std::size_t end = 0;

  bool operator==(const TextRange&) const = default;
};

struct QuotedSpan {
  TextRange span;     // including the quote marks
  TextRange content;  // between the marks, untrimmed
  // "..." “...” 「...」 『...』 are fragments. Single-quoted reported speech
  // ('...' and ‘...’) is only masked: an apostrophe-like mark is too weak a
  // signal to make a citation of.
  bool is_fragment = true;
};

// The quoted spans of `text`, in order and disjoint. `code_spans` (sorted,
// disjoint) are inline code: quote marks in them are literal and no span
// opens inside one, though a quoted span may contain one. Quote marks inside
// a span are literal too. An opening mark without its closing mark is text.
// A single-quoted span opens at a ' after the start, a blank, ( or [ and
// closes at the next ' on the same line that follows a non-blank and comes
// before the end, a blank or punctuation, so "don't" and "users'" in running
// text do not open one.
std::vector<QuotedSpan> FindQuotedSpans(std::string_view text,
                                        const std::vector<TextRange>& code_spans);

struct EvidenceMarker {
  std::size_t marker = 0;  // where Evidence / 证据 / 依据 starts in the line
  std::size_t rest = 0;    // where the rest of the line starts
  // A colon followed the marker. Only then is the rest of the line a
  // fragment (judgement.md 3.1 says "Evidence:"); "## Evidence" or
  // "Evidence for the OOM" only open the evidence section (3.2).
  bool colon = false;
};

// When `line` starts (after blanks and a stray bullet) with "Evidence"
// (any case, then the end, a blank or a colon) or with 证据 / 依据, where
// the marker is, where the rest begins (after an optional ':' or '：' and
// blanks) and whether the colon was there. Otherwise nullopt.
std::optional<EvidenceMarker> MatchEvidenceMarker(std::string_view line);

// `rest` without leading blanks, and without trailing blanks and
// . , ; : 。 ， ； ：
std::string_view TrimEvidenceRest(std::string_view rest);

// True when `line` starts like a list item ("- ", "* ", "+ ", "• ", "1. ",
// "2) ") that Markdown did not parse as one (an ordered list other than 1.
// cannot interrupt a paragraph): such a line starts a new sentence.
bool StartsLikeListItem(std::string_view line);

// The sentences of `text`, in order. A sentence ends after . ! ? followed by
// a blank or the end (not after e.g. / i.e. / vs. / etc. and the like;
// "2.14.0" never splits as no blank follows), after ; followed by a blank
// or the end, after 。！？；, and at each '\n' whose position is in
// `hard_breaks` (sorted); any other '\n' is a soft line break and only
// separates words. Nothing splits inside a `masked` range (sorted,
// disjoint: code and quoted spans). Ranges are trimmed of blanks; ranges
// without a letter, digit or ideograph (a lone ":" or "-") are dropped.
std::vector<TextRange> SplitSentences(std::string_view text, const std::vector<TextRange>& masked,
                                      const std::vector<std::size_t>& hard_breaks);

// Blank for our purposes: ASCII white space or U+3000 (ideographic space).
// Returns the byte length of the blank at `pos`, or 0.
std::size_t BlankLengthAt(std::string_view text, std::size_t pos);

// `text` without leading and trailing blanks, as a range of `text`.
TextRange TrimBlanks(std::string_view text, TextRange range);

}  // namespace causegate::rules
