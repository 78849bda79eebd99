#include "gate/answer_json.h"

#include <cstdio>

namespace causegate::gate {
namespace {

// The escape for byte c, or nullptr when it is written as it is.
const char* Escape(unsigned char c, char (&buf)[8]) {
  switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\b': return "\\b";
    case '\f': return "\\f";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
  }
  if (c > 0x1f) return nullptr;
  std::snprintf(buf, sizeof buf, "\\u%04x", c);
  return buf;
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  out->reserve(out->size() + text.size() + 2);
  out->push_back('"');
  std::size_t run = 0;  // start of the bytes not yet written
  char buf[8];
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char* escape = Escape(static_cast<unsigned char>(text[i]), buf);
    if (escape == nullptr) continue;
    out->append(text.data() + run, i - run);
    out->append(escape);
    run = i + 1;
  }
  out->append(text.data() + run, text.size() - run);
  out->push_back('"');
}

}  // namespace causegate::gate
