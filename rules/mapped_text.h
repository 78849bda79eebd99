// Rendered text with a map back to byte offsets in the source it was
// rendered from: md4c hands the message over in pieces, some of them made
// up (line breaks, decoded entities), and every sentence and fragment must
// still point at the bytes the agent wrote.
// Tests: tests/unit/rules/message_test.cc (spans of sentences and fragments).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace causegate::rules {

class MappedText {
 public:
  // Appends `piece`; `source` is its offset in the message when `in_source`,
  // otherwise the offset it stands for (made-up text has no bytes of its own).
  void Append(std::string_view piece, std::size_t source, bool in_source) {
    if (piece.empty()) return;
    const bool extends_last = in_source && !runs_.empty() && runs_.back().in_source &&
                              runs_.back().source + (text_.size() - runs_.back().text) == source;
    if (!extends_last) runs_.push_back({text_.size(), source, in_source});
    text_.append(piece);
  }

  // The message offset of the text byte at `pos` (or of the end).
  std::size_t SourceOffset(std::size_t pos) const {
    if (runs_.empty()) return 0;
    auto it = std::upper_bound(runs_.begin(), runs_.end(), pos,
                               [](std::size_t p, const Run& run) { return p < run.text; });
    if (it != runs_.begin()) --it;
    if (!it->in_source || pos < it->text) return it->source;
    return it->source + (pos - it->text);
  }

  const std::string& text() const { return text_; }
  bool empty() const { return text_.empty(); }
  void Clear() {
    text_.clear();
    runs_.clear();
  }

 private:
  struct Run {
    std::size_t text;    // where the run starts in text_
    std::size_t source;  // where it starts in the message
    bool in_source;      // false: made-up text, every byte maps to `source`
  };
  std::string text_;
  std::vector<Run> runs_;
};

}  // namespace causegate::rules
