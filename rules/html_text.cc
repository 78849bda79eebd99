#include "rules/html_text.h"

namespace causegate::rules {

bool IsLineBreakTag(std::string_view tag) {
  if (tag.size() < 4 || tag[0] != '<' || (tag[1] != 'b' && tag[1] != 'B') || (tag[2] != 'r' && tag[2] != 'R')) {
    return false;
  }
  const char next = tag[3];
  return next == '>' || next == '/' || next == ' ' || next == '\t' || next == '\n';
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
    if (!cut) continue;
    if (!in_tag_ && i > run) out->push_back({run, i, false});
    if (at_end) break;
    if (in_tag_) {
      in_tag_ = false;
    } else if (c == '<') {
      in_tag_ = true;
    } else {
      out->push_back({i, i, true});
    }
    run = i + 1;
  }
}

}  // namespace causegate::rules
