// Where a rule is in its pack's text: the line and column of its "id",
// found by a scan of the raw text (nlohmann keeps no positions, simdjson
// none that map to lines), resumed rule after rule. Both readings of a pack
// use it (rules/pack.cc, rules/pack_trusted_read.cc).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "rules/json_positions.h"

namespace causegate::rules {

// Where PositionOfId has looked so far: rules come in file order, so each
// search and each line and column count resumes where the previous one
// stopped (counting from the top, or from the start of the line in a pack
// written on one line, for every rule made loading quadratic).
struct IdCursor {
  explicit IdCursor(std::string_view text) : counted(text) {}
  std::size_t from = 0;     // search for the next id from here
  PositionCounter counted;  // of the ids found so far
};

// Line and column of the first `"id": "<id>"` in text at or after
// cursor->from; {0, 0} if absent.
TextPosition PositionOfId(std::string_view text, const std::string& id, IdCursor* cursor);

}  // namespace causegate::rules
