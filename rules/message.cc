// Reads the final message with md4c and sorts it into prose and quoted
// material (spec/judgement.md sections 1 and 3).
//
// md4c reports blocks, spans and text through callbacks in document order;
// text pointers point into the input, except a few pieces it makes up (line
// breaks, code indentation), which map to the nearest source offset. The
// Builder keeps an explicit stack of open blocks, so nothing here recurses
// over the message's structure. Prose text (paragraphs, list items,
// headings, table cells) is collected per block as a "segment" and scanned
// when the block ends or a nested block starts (sentence_split.h does the
// scanning); code and block-quote text becomes one fragment per line as
// each line ends. So every fragment is created in document order, and the
// fragments of any block form one contiguous index range, which is how
// placement (3.2) is recorded: a list item owns the range of its whole
// subtree, a top-level paragraph the range up to the end of the lists, code
// blocks and quotes right after it, a table cell its row's range.
//
// The evidence section is a flag that an Evidence line sets and a prose
// heading clears (and sets again if the heading is itself an Evidence
// heading). HTML blocks are prose, with their tags dropped: the spec lists
// them nowhere as quoted material, and a claim inside <details> is still a
// claim. Inline tags and comments in prose are dropped too, joining the
// text on either side as a renderer shows it (rules/html_text.h), so markup
// cannot split a word a rule looks for.
// Tests: tests/unit/rules/message_test.cc.
#include "rules/message.h"

#include <md4c.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

#include "evidence/limits.h"
#include "evidence/text_fold.h"
#include "evidence/utf8.h"
#include "rules/html_entity.h"
#include "rules/html_text.h"
#include "rules/mapped_text.h"
#include "rules/prose_code_span.h"
#include "rules/sentence_split.h"
#include "rules/table_labels.h"
#include "rules/text_ranges.h"

namespace causegate::rules {
namespace {

constexpr std::size_t kNpos = std::string_view::npos;
constexpr std::string_view kReplacementChar = "\uFFFD";

// Inline text of one prose block, between block boundaries.
struct Segment {
  int unit = -1;
  MappedText text;
  std::vector<TextRange> code_spans;     // content of inline code spans
  std::vector<std::size_t> hard_breaks;  // '\n' positions that end a sentence
  std::size_t open_code = kNpos;         // start of the code span being read
  // Table cells have no Evidence lines: a column headed "Evidence" would
  // otherwise turn the rest of the message into the evidence section; a
  // cell is placed with its row instead.
  bool in_table_cell = false;
};

bool IsFollowerBlock(MD_BLOCKTYPE type) {
  return type == MD_BLOCK_UL || type == MD_BLOCK_OL || type == MD_BLOCK_CODE ||
         type == MD_BLOCK_QUOTE;
}

class Builder {
 public:
  Builder(std::string_view input, const ExtraMarkers& extra_markers)
      : input_(input), extra_markers_(extra_markers) {}

  bool Parse() {
    MD_PARSER parser{};
    parser.abi_version = 0;
    parser.flags = MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH;
    parser.enter_block = [](MD_BLOCKTYPE type, void*, void* self) {
      return static_cast<Builder*>(self)->EnterBlock(type);
    };
    parser.leave_block = [](MD_BLOCKTYPE type, void*, void* self) {
      return static_cast<Builder*>(self)->LeaveBlock(type);
    };
    parser.enter_span = [](MD_SPANTYPE type, void*, void* self) {
      return static_cast<Builder*>(self)->EnterSpan(type);
    };
    parser.leave_span = [](MD_SPANTYPE type, void*, void* self) {
      return static_cast<Builder*>(self)->LeaveSpan(type);
    };
    parser.text = [](MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* self) {
      return static_cast<Builder*>(self)->Text(type, text, size);
    };
    const int rc = md_parse(input_.data(), static_cast<MD_SIZE>(input_.size()), &parser, this);
    FlushSegment();
    FlushMaterialLine();
    return rc == 0;
  }

  // The whole input as one paragraph: the fallback when md4c gives up.
  void ParseAsPlainText() {
    message_ = Message{};
    ranges_.clear();
    shapes_.clear();
    heading_ = -1;
    units_in_section_ = 0;
    evidence_open_ = false;
    segment_ = Segment{};
    segment_.unit = NewUnit();
    segment_.text.Append(input_, 0, true);
    for (std::size_t i = 0; i + 1 < input_.size(); ++i) {
      if (input_[i] == '\n' && input_[i + 1] == '\n') segment_.hard_breaks.push_back(i);
    }
    const int unit = segment_.unit;
    FlushSegment();
    ranges_[static_cast<std::size_t>(unit)] = {0, message_.fragments.size()};
  }

  Message Finish() {
    message_.units = std::move(shapes_);
    message_.units.resize(ranges_.size());
    for (std::size_t u = 0; u < ranges_.size(); ++u) {
      std::vector<int>& list = message_.units[u].fragments;
      for (std::size_t f = ranges_[u].begin; f < ranges_[u].end; ++f) {
        list.push_back(static_cast<int>(f));
      }
    }
    return std::move(message_);
  }

 private:
  struct Frame {
    MD_BLOCKTYPE type = MD_BLOCK_DOC;
    int unit = -1;           // the prose unit this block's text goes to
    bool owns_unit = false;  // false for a paragraph inside a list item
    std::size_t fragments_begin = 0;
    std::size_t units_begin = 0;
    int last_paragraph = -1;  // unit of the child paragraph that the
                              // following lists / code / quotes join
    int lead_in = -1;         // a list: the paragraph it directly follows
  };

  int NewUnit(UnitKind kind = UnitKind::kParagraph) {
    const std::size_t now = message_.fragments.size();
    ranges_.push_back({now, now});
    Unit unit;
    unit.kind = kind;
    unit.heading = kind == UnitKind::kHeading ? -1 : heading_;
    unit.index_in_section = kind == UnitKind::kHeading ? 0 : units_in_section_++;
    if (kind == UnitKind::kListItem && !frames_.empty()) unit.lead_in = frames_.back().lead_in;
    if (kind == UnitKind::kTableCell) {
      const TableLabels::Labels labels = table_.Cell(static_cast<int>(ranges_.size()) - 1);
      unit.row_start = labels.row_start;
      unit.column_head = labels.column_head;
    }
    shapes_.push_back(unit);
    const int index = static_cast<int>(ranges_.size() - 1);
    if (kind == UnitKind::kHeading) {
      heading_ = index;
      units_in_section_ = 0;
    }
    return index;
  }

  int EnterBlock(MD_BLOCKTYPE type) {
    FlushSegment();
    FlushMaterialLine();
    Frame frame;
    frame.type = type;
    frame.fragments_begin = message_.fragments.size();
    frame.units_begin = ranges_.size();
    if (!frames_.empty() && !IsFollowerBlock(type)) frames_.back().last_paragraph = -1;
    if ((type == MD_BLOCK_UL || type == MD_BLOCK_OL) && !frames_.empty()) frame.lead_in = frames_.back().last_paragraph;
    if (type == MD_BLOCK_TABLE) table_.EnterTable();
    if (type == MD_BLOCK_THEAD) table_.EnterHead();
    if (type == MD_BLOCK_TR) table_.EnterRow();
    if (type == MD_BLOCK_QUOTE) ++quote_depth_;
    if (quote_depth_ == 0) {
      switch (type) {
        case MD_BLOCK_P:
          if (!frames_.empty() && frames_.back().type == MD_BLOCK_LI && frames_.back().unit >= 0) {
            frame.unit = frames_.back().unit;
          } else {
            frame.unit = NewUnit();
            frame.owns_unit = true;
          }
          break;
        case MD_BLOCK_H:
          evidence_open_ = false;  // a prose heading ends the evidence section
          frame.unit = NewUnit(UnitKind::kHeading);
          frame.owns_unit = true;
          break;
        case MD_BLOCK_LI:
          frame.unit = NewUnit(UnitKind::kListItem);
          frame.owns_unit = true;
          break;
        case MD_BLOCK_TH:
        case MD_BLOCK_TD:
          frame.unit = NewUnit(UnitKind::kTableCell);
          frame.owns_unit = true;
          break;
        case MD_BLOCK_HTML:
          frame.unit = NewUnit(UnitKind::kHtml);
          frame.owns_unit = true;
          break;
        default:
          break;
      }
    }
    html_.Reset();
    frames_.push_back(frame);
    return 0;
  }

  int LeaveBlock(MD_BLOCKTYPE type) {
    FlushSegment();
    FlushMaterialLine();
    if (frames_.empty()) return 0;
    const Frame frame = frames_.back();
    frames_.pop_back();
    if (type == MD_BLOCK_QUOTE && quote_depth_ > 0) --quote_depth_;
    if (type == MD_BLOCK_THEAD) table_.LeaveHead();
    const std::size_t now = message_.fragments.size();
    if (frame.owns_unit)
      ranges_[static_cast<std::size_t>(frame.unit)] = {frame.fragments_begin, now};
    if (type == MD_BLOCK_TR) {
      // A table cell is placed with its whole row.
      for (std::size_t u = frame.units_begin; u < ranges_.size(); ++u) {
        ranges_[u] = {frame.fragments_begin, now};
      }
    }
    if (!frames_.empty()) {
      Frame& parent = frames_.back();
      if (type == MD_BLOCK_P && frame.owns_unit) {
        parent.last_paragraph = frame.unit;
      } else if (IsFollowerBlock(type) && parent.last_paragraph >= 0) {
        ranges_[static_cast<std::size_t>(parent.last_paragraph)].end = now;
      }
    }
    return 0;
  }

  int EnterSpan(MD_SPANTYPE type) {
    if (type == MD_SPAN_CODE && InProse()) segment_.open_code = segment_.text.text().size();
    return 0;
  }

  int LeaveSpan(MD_SPANTYPE type) {
    if (type == MD_SPAN_CODE && InProse() && segment_.open_code != kNpos) {
      segment_.code_spans.push_back({segment_.open_code, segment_.text.text().size()});
      segment_.open_code = kNpos;
    }
    return 0;
  }

  int Text(MD_TEXTTYPE type, const MD_CHAR* data, MD_SIZE size) {
    const std::string_view piece(data, size);
    const bool in_source =
        std::less_equal<const char*>{}(input_.data(), data) &&
        std::less_equal<const char*>{}(data + size, input_.data() + input_.size());
    const std::size_t source = in_source ? static_cast<std::size_t>(data - input_.data()) : cursor_;
    if (in_source) cursor_ = source + size;
    if (frames_.empty()) return 0;
    const MD_BLOCKTYPE block = frames_.back().type;
    if (quote_depth_ > 0 || block == MD_BLOCK_CODE) {
      AppendMaterial(type, piece, source, in_source);
    } else if (frames_.back().unit >= 0) {
      AppendProse(type, piece, source, in_source, block == MD_BLOCK_HTML);
    }
    return 0;
  }

  bool InProse() const {
    return quote_depth_ == 0 && !frames_.empty() && frames_.back().type != MD_BLOCK_CODE &&
           frames_.back().unit >= 0;
  }

  void AppendProse(MD_TEXTTYPE type, std::string_view piece, std::size_t source, bool in_source,
                   bool html_block) {
    segment_.unit = frames_.back().unit;
    segment_.in_table_cell =
        frames_.back().type == MD_BLOCK_TD || frames_.back().type == MD_BLOCK_TH;
    MappedText& text = segment_.text;
    switch (type) {
      case MD_TEXT_BR:
        segment_.hard_breaks.push_back(text.text().size());
        text.Append("\n", source, false);
        return;
      case MD_TEXT_SOFTBR:
        text.Append("\n", source, false);
        return;
      case MD_TEXT_NULLCHAR:
        text.Append(kReplacementChar, source, false);
        return;
      case MD_TEXT_ENTITY:
        if (const std::optional<std::string> decoded = DecodeEntity(piece)) {
          text.Append(*decoded, source, false);
        } else {
          text.Append(piece, source, in_source);
        }
        return;
      case MD_TEXT_HTML:
        if (html_block) break;
        // An inline tag or comment in prose: a renderer shows neither, so
        // the text on either side joins ("ro<span>ot</span>" reads "root",
        // "root<!-- x -->cause" reads "rootcause"); a <br> breaks the line.
        if (IsLineBreakTag(piece)) text.Append("\n", source, false);
        return;
      default:
        break;
    }
    if (!html_block) {
      text.Append(piece, source, in_source);
      return;
    }
    // An HTML block's text: what a renderer shows (rules/html_text.h),
    // its line ends as soft breaks.
    html_runs_.clear();
    html_.Read(piece, &html_runs_);
    for (const HtmlBlockText::Run& r : html_runs_) {
      const std::size_t at = in_source ? source + r.begin : source;
      if (r.line_break) {
        text.Append("\n", at, false);
      } else {
        text.Append(piece.substr(r.begin, r.end - r.begin), at, in_source);
      }
    }
  }

  // Code and block-quote text: every line is a fragment.
  void AppendMaterial(MD_TEXTTYPE type, std::string_view piece, std::size_t source,
                      bool in_source) {
    material_origin_ = quote_depth_ > 0 ? FragmentOrigin::kQuoteLine : FragmentOrigin::kCodeLine;
    switch (type) {
      case MD_TEXT_BR:
      case MD_TEXT_SOFTBR:
        FlushMaterialLine();
        return;
      case MD_TEXT_NULLCHAR:
        material_.Append(kReplacementChar, source, false);
        return;
      case MD_TEXT_ENTITY:
        if (const std::optional<std::string> decoded = DecodeEntity(piece)) {
          material_.Append(*decoded, source, false);
          return;
        }
        break;
      default:
        break;
    }
    std::size_t start = 0;
    for (;;) {
      const std::size_t newline = piece.find('\n', start);
      const std::size_t end = newline == kNpos ? piece.size() : newline;
      material_.Append(piece.substr(start, end - start), in_source ? source + start : source,
                       in_source);
      if (newline == kNpos) break;
      FlushMaterialLine();
      start = newline + 1;
    }
  }

  void AddFragment(std::string text, FragmentOrigin origin, std::size_t offset, bool in_evidence) {
    Fragment fragment;
    fragment.long_enough = evidence::CountCodePoints(text) >= 8 || evidence::CountHan(text) >= 4;
    fragment.text = std::move(text);
    fragment.origin = origin;
    fragment.offset = offset;
    const int index = static_cast<int>(message_.fragments.size());
    message_.fragments.push_back(std::move(fragment));
    if (in_evidence) message_.evidence_fragments.push_back(index);
  }

  void FlushMaterialLine() {
    if (material_.empty()) return;
    const std::string& text = material_.text();
    const TextRange trimmed = TrimBlanks(text, {0, text.size()});
    if (trimmed.begin < trimmed.end) {
      AddFragment(text.substr(trimmed.begin, trimmed.end - trimmed.begin), material_origin_,
                  material_.SourceOffset(trimmed.begin), evidence_open_);
    }
    material_.Clear();
  }

  void FlushSegment();
  std::optional<EvidenceMarker> MatchAnyMarker(std::string_view line) const;

  std::string_view input_;
  const ExtraMarkers& extra_markers_;
  Message message_;
  std::vector<TextRange> ranges_;  // per unit: its fragment index range
  std::vector<Unit> shapes_;       // per unit: kind and section, fragments filled in Finish
  int heading_ = -1;               // the latest heading unit
  int units_in_section_ = 0;       // units since it
  TableLabels table_;              // the table being read: whose cell labels whose
  std::vector<Frame> frames_;
  int quote_depth_ = 0;
  bool evidence_open_ = false;
  HtmlBlockText html_;                         // inside a tag or comment of an HTML block
  std::vector<HtmlBlockText::Run> html_runs_;  // reused for each piece
  std::size_t cursor_ = 0;  // message offset just past the last text read
  Segment segment_;
  MappedText material_;
  FragmentOrigin material_origin_ = FragmentOrigin::kCodeLine;
};

// Scans one prose segment: its fragments (inline code, quoted spans,
// Evidence lines), whether it opens the evidence section, its sentences.
// The spec's markers first; then the packs' evidence-marker rules, which
// must match at the start of the line (after blanks).
std::optional<EvidenceMarker> Builder::MatchAnyMarker(std::string_view line) const {
  if (std::optional<EvidenceMarker> builtin = MatchEvidenceMarker(line)) return builtin;
  if (!extra_markers_) return std::nullopt;
  std::size_t begin = 0;
  while (begin < line.size() && (line[begin] == ' ' || line[begin] == '\t')) ++begin;
  const std::size_t end = extra_markers_(line.substr(begin));
  if (end == std::string_view::npos || end == 0) return std::nullopt;
  EvidenceMarker marker;
  marker.marker = begin;
  marker.rest = begin + end;
  const std::string_view matched = line.substr(begin, end);
  marker.colon = !matched.empty() && (matched.back() == ':' || (matched.size() >= 3 && matched.substr(matched.size() - 3) == "\uFF1A"));
  if (!marker.colon && marker.rest < line.size() && line[marker.rest] == ':') {
    marker.colon = true;
    ++marker.rest;
  } else if (!marker.colon && line.substr(marker.rest, 3) == "\uFF1A") {
    marker.colon = true;
    marker.rest += 3;
  }
  return marker;
}

void Builder::FlushSegment() {
  Segment segment = std::move(segment_);
  segment_ = Segment{};
  if (segment.unit < 0 || segment.text.empty()) return;
  if (segment.open_code != kNpos) {
    segment.code_spans.push_back({segment.open_code, segment.text.text().size()});
  }
  const std::string& text = segment.text.text();
  const std::vector<QuotedSpan> quoted = FindQuotedSpans(text, segment.code_spans);
  std::vector<TextRange> quoted_ranges;
  quoted_ranges.reserve(quoted.size());
  for (const QuotedSpan& q : quoted) quoted_ranges.push_back(q.span);
  const std::vector<TextRange> masked = MergeRanges(QuotedCodeSpans(text, segment.code_spans), quoted_ranges);

  struct Candidate {
    std::size_t pos;
    int rank;  // at one position: the Evidence line, then a quote, then code
    FragmentOrigin origin;
    TextRange range;
  };
  std::vector<Candidate> candidates;
  for (const TextRange& code : segment.code_spans) {
    const TextRange r = TrimBlanks(text, code);
    if (r.begin < r.end) candidates.push_back({r.begin, 2, FragmentOrigin::kInlineCode, r});
  }
  for (const QuotedSpan& q : quoted) {
    if (!q.is_fragment) continue;
    const TextRange r = TrimBlanks(text, q.content);
    if (r.begin < r.end) candidates.push_back({r.begin, 1, FragmentOrigin::kQuoted, r});
  }

  // Evidence lines. Lines are separated by soft and hard breaks alike.
  std::size_t evidence_from = kNpos;
  std::vector<std::size_t> hard_breaks = segment.hard_breaks;
  for (std::size_t line_begin = 0; line_begin <= text.size();) {
    std::size_t line_end = text.find('\n', line_begin);
    if (line_end == kNpos) line_end = text.size();
    const std::string_view line(text.data() + line_begin, line_end - line_begin);
    const std::optional<EvidenceMarker> marker =
        segment.in_table_cell ? std::nullopt : MatchAnyMarker(line);
    if (marker && !InsideAny(masked, line_begin + marker->marker)) {
      if (evidence_from == kNpos) evidence_from = line_begin;
      // The Evidence line is a sentence of its own.
      if (line_begin > 0) hard_breaks.push_back(line_begin - 1);
      if (line_end < text.size()) hard_breaks.push_back(line_end);
      const std::size_t rest_begin = line_begin + marker->rest;
      const std::string_view rest =
          TrimEvidenceRest(std::string_view(text).substr(rest_begin, line_end - rest_begin));
      if (marker->colon && !rest.empty()) {
        const std::size_t begin = static_cast<std::size_t>(rest.data() - text.data());
        const TextRange r{begin, begin + rest.size()};
        // A rest that is exactly one code or quoted span is that fragment
        // already.
        if (!ContainsRange(masked, r) && !ContainsRange(segment.code_spans, r)) {
          candidates.push_back({r.begin, 0, FragmentOrigin::kEvidenceLine, r});
        }
      }
    } else if (line_begin > 0 && StartsLikeListItem(line)) {
      hard_breaks.push_back(line_begin - 1);
    }
    if (line_end == text.size()) break;
    line_begin = line_end + 1;
  }
  std::sort(hard_breaks.begin(), hard_breaks.end());
  hard_breaks.erase(std::unique(hard_breaks.begin(), hard_breaks.end()), hard_breaks.end());

  const bool open_before = evidence_open_;
  auto in_evidence = [&](std::size_t pos) {
    return open_before || (evidence_from != kNpos && pos >= evidence_from);
  };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     return a.pos != b.pos ? a.pos < b.pos : a.rank < b.rank;
                   });
  for (const Candidate& c : candidates) {
    AddFragment(text.substr(c.range.begin, c.range.end - c.range.begin), c.origin,
                segment.text.SourceOffset(c.range.begin), in_evidence(c.pos));
  }

  for (const TextRange& range : SplitSentences(text, masked, hard_breaks)) {
    Sentence sentence;
    sentence.offset = segment.text.SourceOffset(range.begin);
    sentence.unit = segment.unit;
    sentence.in_evidence_section = in_evidence(range.begin);
    sentence.text.reserve(range.end - range.begin);
    auto mask = std::lower_bound(masked.begin(), masked.end(), range.begin,
                                 [](const TextRange& r, std::size_t p) { return r.end <= p; });
    for (std::size_t i = range.begin; i < range.end;) {
      if (mask != masked.end() && mask->begin <= i && i < mask->end) {
        const std::size_t stop = std::min(mask->end, range.end);
        for (; i < stop; ++i) sentence.text.push_back(text[i] == '\n' ? ' ' : text[i]);
        sentence.masked.append(kQuotePlaceholder);
        ++mask;
        continue;
      }
      const char c = text[i] == '\n' ? ' ' : text[i];
      sentence.text.push_back(c);
      sentence.masked.push_back(c);
      ++i;
    }
    // Rules see through zero-width characters, full-width and look-alike
    // letters (spec 3.4); the sentence text keeps what was written.
    sentence.masked = evidence::FoldForRules(sentence.masked);
    message_.sentences.push_back(std::move(sentence));
  }
  if (evidence_from != kNpos) evidence_open_ = true;
}

}  // namespace

const char* UnitKindName(UnitKind kind) {
  switch (kind) {
    case UnitKind::kParagraph: return "paragraph";
    case UnitKind::kHeading: return "heading";
    case UnitKind::kListItem: return "list-item";
    case UnitKind::kTableCell: return "table-cell";
    case UnitKind::kHtml: return "html";
  }
  return "paragraph";
}

const char* FragmentOriginName(FragmentOrigin origin) {
  switch (origin) {
    case FragmentOrigin::kInlineCode:
      return "inline-code";
    case FragmentOrigin::kCodeLine:
      return "code-line";
    case FragmentOrigin::kQuoteLine:
      return "quote-line";
    case FragmentOrigin::kQuoted:
      return "quoted";
    case FragmentOrigin::kEvidenceLine:
      return "evidence-line";
  }
  return "unknown";
}

std::vector<int> Message::FragmentsFor(const Sentence& sentence) const {
  std::vector<int> out;
  const std::vector<int>* own = nullptr;
  if (sentence.unit >= 0 && static_cast<std::size_t>(sentence.unit) < units.size()) {
    own = &units[static_cast<std::size_t>(sentence.unit)].fragments;
  }
  const std::vector<int> none;
  const std::vector<int>& a = own ? *own : none;
  out.reserve(a.size() + evidence_fragments.size());
  std::set_union(a.begin(), a.end(), evidence_fragments.begin(), evidence_fragments.end(),
                 std::back_inserter(out));
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Message ParseMessage(std::string_view markdown, const ExtraMarkers& extra_markers) {
  markdown = evidence::Utf8Prefix(markdown, limits::kMaxMessageBytes);
  Builder builder(markdown, extra_markers);
  if (!builder.Parse()) builder.ParseAsPlainText();
  return builder.Finish();
}

}  // namespace causegate::rules
