// The text a renderer shows of HTML in a final message (spec/judgement.md:
// HTML is prose, not quoted material). Tags and comments are not shown, so
// the text on either side of one joins: "ro<span>ot</span>" reads "root" and
// "root<!-- x -->cause" reads "rootcause", and markup cannot split a word a
// rule looks for. <br> and the tags of block elements (<summary>, <p>,
// <div>, <li>, ...) are shown as a line break: a renderer puts their text on
// a line of its own, so "<summary>Root cause</summary>The cron job" reads
// two lines, not "causeThe".
// Tests: tests/unit/rules/message_test.cc (through ParseMessage).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace causegate::rules {

// <br>, <br/>, <BR />: the one inline tag a renderer shows as a line break.
bool IsLineBreakTag(std::string_view tag);

// The opening or closing tag of an element a renderer lays out as a block
// of its own (name as written after "<" or "</", any case).
bool IsBlockElement(std::string_view name);

// An HTML block's text arrives in pieces (md4c hands it over line by
// line), and a tag or comment may run across pieces, so the reader keeps
// whether it is inside one between calls.
class HtmlBlockText {
 public:
  // Shown text [begin, end) of a piece, or a line end at begin.
  struct Run {
    std::size_t begin = 0;
    std::size_t end = 0;
    bool line_break = false;
  };

  // Appends the runs of piece a renderer shows, in order: text outside tags
  // and comments, and each line end outside a tag.
  void Read(std::string_view piece, std::vector<Run>* out);
  // A new block starts outside any tag or comment.
  void Reset() {
    in_tag_ = in_comment_ = tag_broke_line_ = false;
    tag_name_.clear();
  }

 private:
  bool in_tag_ = false;
  std::string tag_name_;  // the name of the tag being read, lower case
  // A block tag broke the line and no text has followed yet: the next
  // line end or block tag breaks nothing more.
  bool tag_broke_line_ = false;
  bool in_comment_ = false;  // inside <!-- ... -->
};

}  // namespace causegate::rules
