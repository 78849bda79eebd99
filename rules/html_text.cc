#include "rules/html_text.h"

namespace causegate::rules {
namespace {

// Longer than any block element's name: what is read of a tag's name.
constexpr std::size_t kMaxTagName = 12;

}  // namespace

bool IsLineBreakTag(std::string_view tag) {
  if (tag.size() < 4 || tag[0] != '<' || (tag[1] != 'b' && tag[1] != 'B') || (tag[2] != 'r' && tag[2] != 'R')) {
    return false;
  }
  const char next = tag[3];
  return next == '>' || next == '/' || next == ' ' || next == '\t' || next == '\n';
}

bool IsBlockElement(std::string_view name) {
  static constexpr std::string_view kBlocks[] = {
      "address", "article", "aside",  "blockquote", "br",    "dd",    "details", "div",   "dl",    "dt",
      "figcaption", "figure", "footer", "h1",      "h2",     "h3",    "h4",      "h5",    "h6",    "header",
      "hr",      "li",      "main",   "nav",       "ol",     "p",     "pre",     "section", "summary", "table",
      "td",      "th",      "tr",     "ul"};
  for (const std::string_view block : kBlocks) {
    if (name == block) return true;
  }
  return false;
}

void HtmlBlockText::Read(std::string_view piece, std::vector<Run>* out) {
  std::size_t run = 0;  // start of the text not yet handed out
  for (std::size_t i = 0; i <= piece.size(); ++i) {
    const bool at_end = i == piece.size();
    if (in_comment_) {
      if (at_end) break;
      if (piece.compare(i, 3, "-->") == 0) {
        in_comment_ = false;
        i += 2;
        run = i + 1;
      }
      continue;
    }
    const char c = at_end ? '\0' : piece[i];
    if (!in_tag_ && c == '<' && piece.compare(i, 4, "<!--") == 0) {
      if (i > run) out->push_back({run, i, false});
      in_comment_ = true;
      i += 3;
      continue;
    }
    const bool cut = at_end || (in_tag_ ? c == '>' : (c == '<' || c == '\n'));
    if (!cut) {
      // The name runs from after "<" or "</" to the first other character.
      const bool name_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (in_tag_ && tag_name_.size() < kMaxTagName) {
        if (name_char && tag_name_.find(' ') == std::string::npos) {
          tag_name_ += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        } else if (!(c == '/' && tag_name_.empty())) {
          tag_name_ += ' ';  // the name has ended
        }
      }
      continue;
    }
    if (!in_tag_ && i > run) {
      out->push_back({run, i, false});
      tag_broke_line_ = false;
    }
    if (at_end) break;
    if (in_tag_) {
      in_tag_ = false;
      const std::string_view name = std::string_view(tag_name_).substr(0, tag_name_.find(' '));
      if (IsBlockElement(name) && !tag_broke_line_) {
        out->push_back({i + 1, i + 1, true});
        tag_broke_line_ = true;
      }
      tag_name_.clear();
    } else if (c == '<') {
      in_tag_ = true;
      tag_name_.clear();
    } else if (tag_broke_line_) {
      tag_broke_line_ = false;  // the line a block tag ended ends here too
    } else {
      out->push_back({i, i, true});
    }
    run = i + 1;
  }
}

}  // namespace causegate::rules
