#include "rules/pack_trusted_read.h"

#include <simdjson.h>

#include <unordered_set>
#include <utility>
#include <vector>

#include "evidence/text_fold.h"
#include "rules/pack_format.h"
#include "rules/pack_id_position.h"

namespace causegate::rules {

bool ReadTrustedPack(std::string_view json_text, const std::string& file, PackReading* out) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json_text.data(), json_text.size()).get(doc) != simdjson::SUCCESS) return false;
  simdjson::dom::object top;
  if (doc.get_object().get(top) != simdjson::SUCCESS) return false;
  // Every key known and none written twice (nlohmann keeps the last, the
  // slow reading reports it).
  auto clean_keys = [](simdjson::dom::object object, const auto& fields) {
    std::unordered_set<std::string_view> seen;
    for (const auto field : object) {
      if (!IsFormatField(field.key, fields) || !seen.insert(field.key).second) return false;
    }
    return true;
  };
  auto string_field = [](simdjson::dom::object object, const char* key, std::string* value) {
    simdjson::dom::element e;
    if (object.at_key(key).get(e) != simdjson::SUCCESS) return true;  // absent
    std::string_view text;
    if (e.get_string().get(text) != simdjson::SUCCESS) return false;
    *value = std::string(text);
    return true;
  };
  auto string_array = [](simdjson::dom::object object, const char* key, std::vector<std::string>* values) {
    simdjson::dom::element e;
    if (object.at_key(key).get(e) != simdjson::SUCCESS) return true;  // absent
    simdjson::dom::array items;
    if (e.get_array().get(items) != simdjson::SUCCESS) return false;
    for (const simdjson::dom::element item : items) {
      std::string_view text;
      if (item.get_string().get(text) != simdjson::SUCCESS) return false;
      values->emplace_back(text);
    }
    return true;
  };
  if (!clean_keys(top, kPackFields)) return false;
  std::string format;
  Pack& pack = out->pack;
  pack.file = file;
  if (!string_field(top, "format", &format) || format != kPackFormat) return false;
  if (!string_field(top, "pack", &pack.name) || pack.name.empty()) return false;
  if (!string_field(top, "version", &pack.version) || pack.version.empty()) return false;
  pack.lang = "any";
  if (!string_field(top, "lang", &pack.lang) || !IsPackLang(pack.lang)) return false;
  if (!string_field(top, "description", &pack.description)) return false;
  simdjson::dom::array rules;
  if (top.at_key("rules").get_array().get(rules) != simdjson::SUCCESS) return false;

  IdCursor cursor(json_text);
  std::unordered_set<std::string> ids;
  std::size_t entry = 0;
  for (const simdjson::dom::element item : rules) {
    simdjson::dom::object object;
    if (item.get_object().get(object) != simdjson::SUCCESS || !clean_keys(object, kRuleFields)) return false;
    Rule rule;
    std::string kind;
    if (!string_field(object, "id", &rule.id) || rule.id.empty() || !string_field(object, "kind", &kind) ||
        !ParseRuleKind(kind, &rule.kind) || !string_field(object, "pattern", &rule.pattern) || rule.pattern.empty() ||
        !string_field(object, "description", &rule.description) || !string_field(object, "note", &rule.note) ||
        !string_field(object, "tag", &rule.tag) || !string_array(object, "match", &rule.must_match) ||
        !string_array(object, "no_match", &rule.must_not_match)) {
      return false;
    }
    if (rule.kind == RuleKind::kFeature && rule.tag.empty()) return false;
    if (!ids.insert(rule.id).second) return false;
    if (pack.lang == "zh") {
      for (const std::string& example : rule.must_match) {
        if (evidence::CountHan(example) == 0) return false;
      }
    }
    const TextPosition id_at = PositionOfId(json_text, rule.id, &cursor);
    rule.line = id_at.line;
    rule.column = id_at.column;
    rule.pack = pack.name;
    rule.file = file;
    pack.rules.push_back(std::move(rule));
    out->entry_of.push_back(entry++);
  }
  out->entries = entry;
  return true;
}

}  // namespace causegate::rules
