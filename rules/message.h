// The final message as the gate reads it: prose sentences that may be
// claims, and the quoted fragments that may cite tool output, with the
// placement rules of spec/judgement.md section 3.2 already applied.
//
// Markdown structure comes from md4c (never hand-written fence scanning):
// fenced and indented code, inline code spans and `>` block quotes are
// quoted material, never prose. In prose, "double", “curly”, 「corner」 and
// 『white corner』 quotes are fragments too. On a line that starts with
// Evidence: / 证据： / 依据： (emphasis ignored) the rest of the line, trailing
// punctuation trimmed, is one more fragment, and that line opens the
// evidence section, which runs to the next heading or the end.
// Tests: tests/unit/rules/message_test.cc.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace causegate::rules {

enum class FragmentOrigin {
  kInlineCode,    // `...`: one fragment
  kCodeLine,      // one non-empty line of a fenced or indented code block
  kQuoteLine,     // one non-empty line of a > block quote
  kQuoted,        // "..." “...” 「...」 『...』 in prose
  kEvidenceLine,  // the rest of an Evidence: line
};

const char* FragmentOriginName(FragmentOrigin origin);

struct Fragment {
  // As written, trimmed. Rendered as Markdown renders it: emphasis markers,
  // backslash escapes and code-span backticks are gone, entities decoded
  // (so "2*3*4" in a prose quote or a > quote reads "234"; code keeps all).
  std::string text;
  FragmentOrigin origin;
  std::size_t offset = 0;  // byte offset in the message
  // At least 8 code points, or at least 4 Han characters: only such
  // fragments can cite (shorter quotes count as nothing).
  bool long_enough = false;
};

struct Sentence {
  std::string text;    // as written (inline markup removed), for the reason
  // The sentence with every inline code span and quoted span replaced by the
  // placeholder kQuotePlaceholder, emphasis markers dropped, soft line breaks
  // as spaces, disguised letters undone (evidence::FoldForRules): what the
  // rule packs match against.
  std::string masked;
  std::size_t offset = 0;  // byte offset of the sentence start in the message
  int unit = 0;            // index into Message::units
  bool in_evidence_section = false;
};

inline constexpr std::string_view kQuotePlaceholder = "QUOTE";

enum class UnitKind { kParagraph, kHeading, kListItem, kTableCell, kHtml };
const char* UnitKindName(UnitKind kind);  // "paragraph", "list-item", ...

// A prose container: a paragraph, list item, heading or table cell.
struct Unit {
  UnitKind kind = UnitKind::kParagraph;
  // The heading whose section holds this unit (the nearest heading before
  // it), or -1: a heading is no claim by itself, its section is read with it.
  int heading = -1;
  // Units of the section before this one: 0 for the first unit under its
  // heading (where "## Why it broke" is answered).
  int index_in_section = 0;
  // A list item: the paragraph its list directly follows ("It fails
  // because:" and then the causes), or -1.
  int lead_in = -1;
  // A table cell: the unit of its row's first cell (the row's label), or -1.
  int row_start = -1;
  // A body cell: the unit of its column's header cell ("| Symptom | Cause |
  // Fix |" labels every cell below it), or -1.
  int column_head = -1;
  std::vector<int> fragments;  // fragments placed with this unit (3.2): its
                               // own, those of its nested blocks, and of the
                               // lists / code / quotes directly following it
};

struct Message {
  std::vector<Sentence> sentences;        // prose only, document order
  std::vector<Unit> units;
  std::vector<Fragment> fragments;        // every fragment, document order
  std::vector<int> evidence_fragments;    // fragments in the evidence section

  // Fragments placed with a sentence: its unit's plus the evidence section's,
  // without duplicates, document order.
  std::vector<int> FragmentsFor(const Sentence& sentence) const;
};

// Evidence-section openers beyond the spec's Evidence / 证据 / 依据 (the
// packs' evidence-marker rules): given a line without leading blanks,
// returns the byte length of the marker at its start, or npos for none.
using ExtraMarkers = std::function<std::size_t(std::string_view line)>;

// Never fails: text that is not valid Markdown is still prose. Reads at most
// limits::kMaxMessageBytes (a longer message is judged on its prefix). HTML
// blocks are prose with their tags dropped. Table cells are placed with
// their whole row and hold no Evidence lines.
Message ParseMessage(std::string_view markdown, const ExtraMarkers& extra_markers = {});

}  // namespace causegate::rules
