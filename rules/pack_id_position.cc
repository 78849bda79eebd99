#include "rules/pack_id_position.h"

namespace causegate::rules {

TextPosition PositionOfId(std::string_view text, const std::string& id, IdCursor* cursor) {
  const std::string needle = "\"" + id + "\"";
  std::size_t pos = cursor->from;
  while ((pos = text.find(needle, pos)) != std::string_view::npos) {
    // Accept only when this string is the value of an "id" key.
    std::size_t k = pos;
    while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\n' || text[k - 1] == '\r')) --k;
    if (k > 0 && text[k - 1] == ':') {
      std::size_t key_end = k - 1;
      while (key_end > 0 && text[key_end - 1] != '"') --key_end;
      if (key_end >= 4 && text.substr(key_end - 4, 4) == "\"id\"") {
        cursor->from = pos + needle.size();
        return cursor->counted.At(pos);
      }
    }
    pos += needle.size();
  }
  return {};
}

}  // namespace causegate::rules
