// Loading rule packs. Parsing is strict: an unknown field, a missing id or
// an unknown kind is an error naming the file and line, because a pack that
// half-loads would silently change what the gate blocks. Line numbers come
// from a scan of the raw text for the rule's "id" (nlohmann keeps none).
#include "rules/pack.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "evidence/limits.h"
#include "evidence/text_fold.h"
#include "rules/embedded.h"

namespace causegate::rules {
namespace {

using nlohmann::json;

// One pack file (--rules, the daemon's rules folder); a larger one is
// refused at load (RELIABILITY.md, "Limits").
constexpr std::size_t kMaxPackBytes = 4 * limits::kMaxHookInputBytes;

constexpr std::array<const char*, kRuleKindCount> kKindNames = {
    "claim",       "hedge",     "question",          "conditional",
    "negation",    "uncertainty", "rationale",       "diagnostic-prompt",
    "failure-word", "evidence-marker", "step",       "symptom",
    "feature"};

int LineOfOffset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// Where LineOfId has looked so far: rules come in file order, so each
// search and each line count resumes where the previous one stopped
// (counting from the top for every rule was a tenth of a hook call).
struct IdCursor {
  std::size_t from = 0;        // search for the next id from here
  std::size_t counted_to = 0;  // newlines counted in [0, counted_to)
  int line = 1;                // line at counted_to
};

// Line of the first `"id": "<id>"` in text at or after cursor->from; 0 if absent.
int LineOfId(std::string_view text, const std::string& id, IdCursor* cursor) {
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
        cursor->line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(cursor->counted_to),
                                                    text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
        cursor->counted_to = pos;
        return cursor->line;
      }
    }
    pos += needle.size();
  }
  return 0;
}

Status StringArray(const json& value, const char* field, std::vector<std::string>* out) {
  if (!value.is_array()) return Status::Error(std::string(field) + ": must be an array of strings");
  for (const json& item : value) {
    if (!item.is_string()) return Status::Error(std::string(field) + ": must be an array of strings");
    out->push_back(item.get<std::string>());
  }
  return Status::Ok();
}

Status ParseRule(const json& value, Rule* rule) {
  if (!value.is_object()) return Status::Error("a rule must be a JSON object");
  static const std::set<std::string> kFields = {"id", "kind", "pattern", "description", "tag",
                                                "match", "no_match"};
  for (const auto& [key, unused] : value.items()) {
    if (!kFields.count(key)) return Status::Error("unknown field \"" + key + "\"");
  }
  for (const char* field : {"id", "kind", "pattern"}) {
    if (!value.contains(field) || !value[field].is_string() || value[field].get<std::string>().empty()) {
      return Status::Error(std::string("missing or empty string field \"") + field + "\"");
    }
  }
  rule->id = value["id"].get<std::string>();
  const std::string kind = value["kind"].get<std::string>();
  if (!ParseRuleKind(kind, &rule->kind)) return Status::Error("unknown kind \"" + kind + "\"");
  rule->pattern = value["pattern"].get<std::string>();
  if (value.contains("description")) {
    if (!value["description"].is_string()) return Status::Error("description: must be a string");
    rule->description = value["description"].get<std::string>();
  }
  if (value.contains("tag")) {
    if (!value["tag"].is_string()) return Status::Error("tag: must be a string");
    rule->tag = value["tag"].get<std::string>();
  }
  // A feature's weight is looked up by its tag (rules/claim_scorer.h): a
  // feature without one would match and weigh nothing.
  if (rule->kind == RuleKind::kFeature && rule->tag.empty()) return Status::Error("a feature rule needs a tag");
  if (value.contains("match")) {
    if (Status s = StringArray(value["match"], "match", &rule->must_match); !s.ok()) return s;
  }
  if (value.contains("no_match")) {
    if (Status s = StringArray(value["no_match"], "no_match", &rule->must_not_match); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace

const char* RuleKindName(RuleKind kind) { return kKindNames[static_cast<std::size_t>(kind)]; }

bool ParseRuleKind(std::string_view name, RuleKind* kind) {
  for (std::size_t i = 0; i < kKindNames.size(); ++i) {
    if (name == kKindNames[i]) {
      *kind = static_cast<RuleKind>(i);
      return true;
    }
  }
  return false;
}

Status ParsePack(std::string_view json_text, const std::string& file, Pack* pack) {
  if (json_text.size() > kMaxPackBytes) {
    return Status::Error(file + ": pack is larger than " + std::to_string(kMaxPackBytes) + " bytes");
  }
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    const int line = LineOfOffset(json_text, e.byte > 0 ? e.byte - 1 : 0);
    return Status::Error(file + ":" + std::to_string(line) + ": invalid JSON: " + e.what());
  }
  if (!doc.is_object()) return Status::Error(file + ":1: a pack must be a JSON object");
  if (!doc.contains("format") || doc["format"] != "causegate-pack/1") {
    return Status::Error(file + ":1: \"format\" must be \"causegate-pack/1\"");
  }
  for (const char* field : {"pack", "version"}) {
    if (!doc.contains(field) || !doc[field].is_string() || doc[field].get<std::string>().empty()) {
      return Status::Error(file + ":1: missing or empty string field \"" + field + "\"");
    }
  }
  pack->name = doc["pack"].get<std::string>();
  pack->version = doc["version"].get<std::string>();
  pack->lang = doc.value("lang", "any");
  pack->description = doc.value("description", "");
  pack->file = file;
  if (!doc.contains("rules") || !doc["rules"].is_array()) {
    return Status::Error(file + ":1: \"rules\" must be an array");
  }
  IdCursor cursor;
  std::set<std::string> seen;
  for (const json& value : doc["rules"]) {
    Rule rule;
    const std::string id = value.is_object() && value.contains("id") && value["id"].is_string()
                               ? value["id"].get<std::string>()
                               : std::string();
    const int line = id.empty() ? 0 : LineOfId(json_text, id, &cursor);
    const std::string where = file + ":" + std::to_string(line) + (id.empty() ? "" : ": rule \"" + id + "\"");
    if (Status s = ParseRule(value, &rule); !s.ok()) return s.Within(where);
    if (!seen.insert(rule.id).second) return Status::Error(where + ": duplicate id");
    if (pack->lang == "zh") {
      // zh rules run only on text with CJK characters (RuleSet::Match).
      for (const std::string& example : rule.must_match) {
        if (evidence::CountHan(example) == 0) {
          return Status::Error(where + ": match example \"" + example +
                               "\" has no Chinese character, but rules of a zh pack only run on text that has one");
        }
      }
    }
    rule.pack = pack->name;
    rule.file = file;
    rule.line = line;
    pack->rules.push_back(std::move(rule));
  }
  return Status::Ok();
}

Status LoadPackFile(const std::string& path, Pack* pack) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Status::Error(path + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return ParsePack(text.str(), path, pack);
}

std::vector<Pack> DefaultPacks() {
  std::vector<Pack> packs;
  for (std::size_t i = 0; i < embedded::kFileCount; ++i) {
    const EmbeddedFile& f = embedded::kFiles[i];
    if (f.name.size() < 5 || f.name.substr(f.name.size() - 5) != ".json") continue;
    Pack pack;
    // The embedded packs are checked by the tests; a failure here is a build bug.
    if (ParsePack(f.contents, "<builtin>/" + std::string(f.name), &pack).ok()) packs.push_back(std::move(pack));
  }
  return packs;
}

Status LoadPacks(const std::string& dir, std::vector<Pack>* packs) {
  *packs = DefaultPacks();
  if (dir.empty()) return Status::Ok();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return Status::Error(dir + ": not a directory");
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  }
  if (ec) return Status::Error(dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    Pack pack;
    if (Status s = LoadPackFile(path, &pack); !s.ok()) return s;
    auto same = std::find_if(packs->begin(), packs->end(), [&](const Pack& p) { return p.name == pack.name; });
    if (same != packs->end()) {
      *same = std::move(pack);
    } else {
      packs->push_back(std::move(pack));
    }
  }
  return Status::Ok();
}

}  // namespace causegate::rules
