// JsonDepthWithin: one pass over the bytes, skipping strings (and the
// escapes inside them), counting open brackets. Run before nlohmann::json
// parses anything from outside, since nlohmann has no depth limit.
// Tests: tests/unit/evidence/claude_line_test.cc.
#include "evidence/json_bounds.h"

namespace causegate::evidence {

bool JsonDepthWithin(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

}  // namespace causegate::evidence
