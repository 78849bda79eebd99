// Which cells of a Markdown table label which: a row's first cell labels
// the cells after it ("| Cause | the cron job |"), a header cell labels the
// body cells of its column ("| Symptom | Cause | Fix |"). Fed md4c's table
// events in document order by the message reader (rules/message.cc); the
// claim scorer reads a label that names a cause as a cause place.
// Tests: tests/unit/rules/message_test.cc.
#pragma once

#include <cstddef>
#include <vector>

namespace causegate::rules {

class TableLabels {
 public:
  struct Labels {
    int row_start = -1;    // the row's first cell (the cell itself when first)
    int column_head = -1;  // a body cell's header cell, or -1
  };

  void EnterTable() { column_heads_.clear(); }
  void EnterHead() { in_head_ = true; }
  void LeaveHead() { in_head_ = false; }
  void EnterRow() {
    row_start_ = -1;
    column_ = 0;
  }
  bool InHead() const { return in_head_; }

  // The next cell of the current row, as unit index `cell`.
  Labels Cell(int cell) {
    Labels out;
    if (row_start_ < 0) row_start_ = cell;
    out.row_start = row_start_;
    if (in_head_) {
      column_heads_.push_back(cell);
    } else if (column_ < column_heads_.size()) {
      out.column_head = column_heads_[column_];
    }
    ++column_;
    return out;
  }

 private:
  int row_start_ = -1;             // first cell of the row being read
  std::size_t column_ = 0;         // the next cell's column in that row
  std::vector<int> column_heads_;  // header cells of the table being read
  bool in_head_ = false;           // reading the table's header row
};

}  // namespace causegate::rules
