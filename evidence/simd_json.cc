#include "evidence/simd_json.h"

#include <memory>

#include "evidence/limits.h"

namespace causegate::evidence::simd {
namespace {

using simdjson::dom::parser;

std::unique_ptr<parser> NewParser() {
  auto p = std::make_unique<parser>(limits::kMaxTranscriptLineBytes + (1u << 20));
  // allocate() fixes the depth limit that later growth keeps.
  // simdjson counts the document itself as a level: kMaxJsonDepth nested
  // arrays and objects, as JsonDepthWithin allows, need one more.
  if (p->allocate(64u << 10, limits::kMaxJsonDepth + 1) != simdjson::SUCCESS) return nullptr;
  return p;
}

parser* ThreadParser(std::size_t next_size) {
  thread_local std::unique_ptr<parser> p;
  if (p != nullptr && p->capacity() > kSimdKeepBytes && next_size <= kSimdKeepBytes) p.reset();
  if (p == nullptr) p = NewParser();
  return p.get();
}

}  // namespace

bool Parse(std::string_view text, Element* root) {
  parser* p = ThreadParser(text.size());
  if (p == nullptr) return false;
  return p->parse(text.data(), text.size(), /*realloc_if_needed=*/true).get(*root) == simdjson::SUCCESS;
}

bool Field(Element object, std::string_view key, Element* out) {
  simdjson::dom::object fields;
  if (object.get_object().get(fields) != simdjson::SUCCESS) return false;
  bool found = false;
  for (const simdjson::dom::key_value_pair field : fields) {
    if (field.key == key) {
      *out = field.value;
      found = true;
    }
  }
  return found;
}

std::string_view StringField(Element object, std::string_view key) {
  Element value;
  std::string_view text;
  if (!Field(object, key, &value) || value.get_string().get(text) != simdjson::SUCCESS) return {};
  return text;
}

bool TrueField(Element object, std::string_view key) {
  Element value;
  bool flag = false;
  return Field(object, key, &value) && value.get_bool().get(flag) == simdjson::SUCCESS && flag;
}

}  // namespace causegate::evidence::simd
