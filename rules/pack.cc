// Loading rule packs. Parsing is strict: an unknown field, a missing id or
// an unknown kind is an error naming the file, line and column, because a
// pack that half-loads would silently change what the gate blocks. Reading
// goes on past a problem, so that one run of `rules lint` lists them all.
// The line of each rule comes from a scan of the raw text for its "id"
// (nlohmann keeps no positions), resumed rule after rule; where a problem
// is comes from JsonPositions, a second scan made for a user's pack and,
// for the packs compiled in, only when there is a problem to locate. The
// packs compiled in are read by simdjson first (rules/pack_trusted_read.h:
// a hook call reads them at every stop), and this reading only when that
// one gives up.
#include "rules/pack.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "evidence/limits.h"
#include "evidence/text_fold.h"
#include "rules/embedded.h"
#include "rules/pack_format.h"
#include "rules/pack_id_position.h"
#include "rules/pack_trusted_read.h"

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

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// " (did you mean \"pattern\"?)" for the name within two edits of word, or "".
template <std::size_t N>
std::string DidYouMean(std::string_view word, const std::array<const char*, N>& names) {
  const char* best = nullptr;
  std::size_t best_distance = 3;
  for (const char* name : names) {
    const std::size_t d = EditDistance(word, name);
    if (d < best_distance) {
      best = name;
      best_distance = d;
    }
  }
  return best ? std::string(" (did you mean \"") + best + "\"?)" : "";
}

// A problem of one rule, by the field it is in: "" for the rule itself,
// "pattern", "match/1".
struct FieldProblem {
  std::string field;
  std::string what;
};

void StringArray(const json& value, const char* field, std::vector<std::string>* out,
                 std::vector<FieldProblem>* problems) {
  const std::string what = std::string(field) + ": must be an array of strings";
  if (!value.is_array()) {
    problems->push_back({field, what});
    return;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) {
      problems->push_back({std::string(field) + "/" + std::to_string(i), what});
      return;
    }
    out->push_back(value[i].get<std::string>());
  }
}

void OptionalString(const json& rule, const char* field, std::string* out, std::vector<FieldProblem>* problems) {
  const auto it = rule.find(field);
  if (it == rule.end()) return;
  if (!it->is_string()) {
    problems->push_back({field, std::string(field) + ": must be a string"});
    return;
  }
  *out = it->get<std::string>();
}

// Reads one item of "rules" into rule, every problem into problems.
void ParseRule(const json& value, Rule* rule, std::vector<FieldProblem>* problems) {
  if (!value.is_object()) {
    problems->push_back({"", "a rule must be a JSON object"});
    return;
  }
  for (const auto& [key, unused] : value.items()) {
    if (!IsFormatField(key, kRuleFields)) {
      problems->push_back({JsonPointerToken(key), "unknown field \"" + key + "\"" + DidYouMean(key, kRuleFields)});
    }
  }
  bool kind_known = false;
  for (const std::string_view field : {"id", "kind", "pattern"}) {
    const auto it = value.find(field);
    if (it == value.end() || !it->is_string() || it->get<std::string>().empty()) {
      problems->push_back({it == value.end() ? "" : std::string(field),
                           "missing or empty string field \"" + std::string(field) + "\""});
      continue;
    }
    const std::string text = it->get<std::string>();
    if (field == "id") {
      rule->id = text;
    } else if (field == "pattern") {
      rule->pattern = text;
    } else if (ParseRuleKind(text, &rule->kind)) {
      kind_known = true;
    } else {
      const std::string suggestion = DidYouMean(text, kKindNames);
      std::string kinds;
      for (const char* name : kKindNames) kinds += std::string(kinds.empty() ? "" : ", ") + name;
      problems->push_back({"kind", "unknown kind \"" + text + "\"" +
                                       (suggestion.empty() ? " (kinds: " + kinds + ")" : suggestion)});
    }
  }
  OptionalString(value, "description", &rule->description, problems);
  OptionalString(value, "note", &rule->note, problems);
  OptionalString(value, "tag", &rule->tag, problems);
  // A feature's weight is looked up by its tag (rules/claim_scorer.h): a
  // feature without one would match and weigh nothing.
  if (kind_known && rule->kind == RuleKind::kFeature && rule->tag.empty()) {
    problems->push_back({value.contains("tag") ? "tag" : "", "a feature rule needs a tag"});
  }
  if (value.contains("match")) StringArray(value["match"], "match", &rule->must_match, problems);
  if (value.contains("no_match")) StringArray(value["no_match"], "no_match", &rule->must_not_match, problems);
}

// nlohmann's message without its prefix and position, which the problem
// gives as file:line:column: "syntax error while parsing value - ...".
std::string ParseErrorText(std::string_view what) {
  const std::size_t at = what.find("parse error");
  if (at != std::string_view::npos) {
    const std::size_t colon = what.find(": ", at);
    if (colon != std::string_view::npos) return std::string(what.substr(colon + 2));
  }
  const std::size_t bracket = what.find("] ");
  return std::string(what.substr(bracket == std::string_view::npos ? 0 : bracket + 2));
}

std::string Place(const std::string& file, int line, int column) {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  if (line > 0 && column > 0) out += ":" + std::to_string(column);
  return out;
}

// Reads the top-level fields into pack, each problem through problem(JSON
// Pointer, what); false when there is no "rules" array to go on with.
bool ReadPackFields(const json& doc, const std::function<void(const std::string&, std::string)>& problem,
                    Pack* pack) {
  for (const auto& [key, unused] : doc.items()) {
    if (!IsFormatField(key, kPackFields)) {
      problem("/" + JsonPointerToken(key), "unknown field \"" + key + "\"" + DidYouMean(key, kPackFields));
    }
  }
  const auto at = [&](const char* field) { return doc.contains(field) ? std::string("/") + field : std::string(); };
  const auto format = doc.find("format");
  if (format == doc.end() || *format != kPackFormat) {
    problem(at("format"), "\"format\" must be \"" + std::string(kPackFormat) + "\"");
  }
  for (const char* field : {"pack", "version"}) {
    const auto it = doc.find(field);
    if (it == doc.end() || !it->is_string() || it->get<std::string>().empty()) {
      problem(at(field), std::string("missing or empty string field \"") + field + "\"");
    } else {
      (field == std::string("pack") ? pack->name : pack->version) = it->get<std::string>();
    }
  }
  pack->lang = "any";
  if (const auto lang = doc.find("lang"); lang != doc.end()) {
    if (!lang->is_string() || !IsPackLang(lang->get<std::string>())) {
      problem("/lang", "\"lang\" must be \"en\", \"zh\" or \"any\"");
    } else {
      pack->lang = lang->get<std::string>();
    }
  }
  if (const auto description = doc.find("description"); description != doc.end()) {
    if (description->is_string()) {
      pack->description = description->get<std::string>();
    } else {
      problem("/description", "description: must be a string");
    }
  }
  const auto rules = doc.find("rules");
  if (rules == doc.end() || !rules->is_array()) {
    problem(at("rules"), "\"rules\" must be an array");
    return false;
  }
  return true;
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

TextPosition PatternPosition(const Rule& rule) {
  return rule.pattern_at.line > 0 ? rule.pattern_at : TextPosition{rule.line, rule.column};
}

bool IsBuiltinFile(std::string_view file) { return file.substr(0, kBuiltinPrefix.size()) == kBuiltinPrefix; }

std::string PackProblem::Message() const {
  std::string out;
  if (!file.empty()) out = Place(file, line, column) + ": ";
  if (!rule.empty()) out += "rule \"" + rule + "\": ";
  return out + what;
}

PackProblem DuplicateId(const Rule& rule, const Rule& first) {
  const std::string place = Place(first.file, first.line, first.column);
  std::string what = "duplicate id: also ";
  if (IsBuiltinFile(first.file)) {
    what += "in the built-in pack \"" + first.pack + "\" at " + place + " (rename the rule, or name your pack \"" +
            first.pack + "\" to replace that pack)";
  } else if (first.file == rule.file) {
    what += "at " + place;
  } else {
    what += "in pack \"" + first.pack + "\" at " + place;
  }
  return {rule.file, rule.line, rule.column, rule.id, what};
}

std::string SummarizeProblems(const std::vector<PackProblem>& problems, const std::string& path) {
  std::string out = problems.front().Message();
  if (problems.size() > 1) {
    out += " (and " + std::to_string(problems.size() - 1) + " more: run causegate rules lint " + path + ")";
  }
  return out;
}

TextPosition PackReading::RuleField(std::size_t entry, std::string_view field) const {
  if (!positions) return {};
  std::string pointer = "/rules/" + std::to_string(entry);
  if (!field.empty()) pointer += "/" + std::string(field);
  return positions->Find(pointer);
}

PackReading ReadPack(std::string_view json_text, const std::string& file, PackCheck check) {
  PackReading r;
  r.pack.file = file;
  auto add = [&](TextPosition at, const std::string& rule, std::string what) {
    r.problems.push_back({file, at.line, at.column, rule, std::move(what)});
  };
  if (json_text.size() > kMaxPackBytes) {
    add({}, "", "pack is larger than " + std::to_string(kMaxPackBytes) + " bytes");
    return r;
  }
  if (check == PackCheck::kTrusted) {
    PackReading fast;
    if (ReadTrustedPack(json_text, file, &fast)) return fast;
  }
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    add(PositionOf(json_text, e.byte > 0 ? e.byte - 1 : 0), "", "invalid JSON: " + ParseErrorText(e.what()));
    return r;
  } catch (const json::exception& e) {
    add({}, "", "invalid JSON: " + ParseErrorText(e.what()));
    return r;
  }
  if (check == PackCheck::kFull) r.positions = std::make_unique<JsonPositions>(json_text);
  auto locate = [&](const std::string& pointer) {
    if (!r.positions) r.positions = std::make_unique<JsonPositions>(json_text);
    return r.positions->Find(pointer);
  };
  if (!doc.is_object()) {
    add(locate(""), "", "a pack must be a JSON object");
    return r;
  }
  const bool has_rules =
      ReadPackFields(
          doc, [&](const std::string& pointer, std::string what) { add(locate(pointer), "", std::move(what)); },
          &r.pack);
  if (r.positions && !r.pack.name.empty()) {
    const TextPosition at = r.positions->Find("/pack");
    r.pack.line = at.line;
    r.pack.column = at.column;
  }
  if (has_rules) {
    const json& rules = doc["rules"];
    r.entries = rules.size();
    IdCursor cursor(json_text);
    // Every id read so far, with where it is: a rule with a problem still
    // holds its id against a later one.
    std::unordered_map<std::string, TextPosition> first_at;
    for (std::size_t i = 0; i < rules.size(); ++i) {
      Rule rule;
      std::vector<FieldProblem> problems;
      ParseRule(rules[i], &rule, &problems);
      const TextPosition id_at = rule.id.empty() ? TextPosition{} : PositionOfId(json_text, rule.id, &cursor);
      rule.line = id_at.line;
      rule.column = id_at.column;
      rule.pack = r.pack.name;
      rule.file = file;
      const std::string entry = "/rules/" + std::to_string(i);
      for (const FieldProblem& p : problems) {
        TextPosition at = p.field.empty() ? id_at : locate(entry + "/" + p.field);
        if (at.line == 0) at = locate(entry);
        add(at, rule.id, p.what);
      }
      if (rule.id.empty()) continue;
      if (const auto [first, inserted] = first_at.emplace(rule.id, id_at); !inserted) {
        Rule earlier;
        earlier.id = rule.id;
        earlier.pack = rule.pack;
        earlier.file = file;
        earlier.line = first->second.line;
        earlier.column = first->second.column;
        r.problems.push_back(DuplicateId(rule, earlier));
        continue;
      }
      bool usable = problems.empty();
      if (r.pack.lang == "zh") {
        // zh rules run only on text with CJK characters (RuleSet::Match).
        for (std::size_t k = 0; k < rule.must_match.size(); ++k) {
          if (evidence::CountHan(rule.must_match[k]) == 0) {
            usable = false;
            add(locate(entry + "/match/" + std::to_string(k)), rule.id,
                "match example \"" + rule.must_match[k] +
                    "\" has no Chinese character, but rules of a zh pack only run on text that has one");
          }
        }
      }
      if (!usable) continue;
      if (r.positions) rule.pattern_at = r.positions->Find(entry + "/pattern");
      r.pack.rules.push_back(std::move(rule));
      r.entry_of.push_back(i);
    }
  }
  if (r.positions) {
    for (const JsonPositions::DuplicateKey& d : r.positions->duplicate_keys()) {
      // "/rules/3/pattern": name the rule when the key is in one.
      std::string rule;
      if (d.pointer.rfind("/rules/", 0) == 0 && has_rules) {
        const std::size_t entry = std::strtoul(d.pointer.c_str() + 7, nullptr, 10);
        const json& item = entry < r.entries ? doc["rules"][entry] : doc;
        if (entry < r.entries && item.is_object() && item.contains("id") && item["id"].is_string()) {
          rule = item["id"].get<std::string>();
        }
      }
      const std::string key = d.pointer.substr(d.pointer.rfind('/') + 1);
      add(d.position, rule, "field \"" + key + "\" given twice (only the last one would count)");
    }
  }
  std::stable_sort(r.problems.begin(), r.problems.end(), [](const PackProblem& a, const PackProblem& b) {
    return std::make_pair(a.line, a.column) < std::make_pair(b.line, b.column);
  });
  return r;
}

Status ParsePack(std::string_view json_text, const std::string& file, Pack* pack) {
  PackReading r = ReadPack(json_text, file, PackCheck::kFull);
  if (!r.problems.empty()) return Status::Error(SummarizeProblems(r.problems, file));
  *pack = std::move(r.pack);
  return Status::Ok();
}

Status ReadPackText(const std::string& path, std::string* text) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return Status::Error(path + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path + ": cannot open");
  // By chunks, not into a buffer of the largest size a pack may have:
  // zeroing 32 MiB for each pack file cost more than reading it.
  text->clear();
  std::array<char, 1 << 16> chunk;
  while (in && text->size() <= kMaxPackBytes) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text->append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return Status::Error(path + ": cannot read");
  return Status::Ok();
}

Status LoadPackFile(const std::string& path, Pack* pack) {
  std::string text;
  if (Status s = ReadPackText(path, &text); !s.ok()) return s;
  return ParsePack(text, path, pack);
}

Status PackFiles(const std::string& path, std::vector<std::string>* files) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_regular_file(status)) {
    files->push_back(path);
    return Status::Ok();
  }
  if (!fs::is_directory(status)) {
    const char* what = fs::exists(status) ? ": neither a pack file nor a folder" : ": no such file or folder";
    return Status::Error(path + what);
  }
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    if (entry.path().extension() == ".json") found.push_back(entry.path().string());
  }
  if (ec) return Status::Error(path + ": " + ec.message());
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return Status::Ok();
}

std::vector<Pack> DefaultPacks() {
  std::vector<Pack> packs;
  for (std::size_t i = 0; i < embedded::kFileCount; ++i) {
    const EmbeddedFile& f = embedded::kFiles[i];
    if (f.name.size() < 5 || f.name.substr(f.name.size() - 5) != ".json") continue;
    // The embedded packs are linted by the tests; a problem here is a build bug.
    PackReading r = ReadPack(f.contents, std::string(kBuiltinPrefix) + std::string(f.name), PackCheck::kTrusted);
    if (r.problems.empty()) packs.push_back(std::move(r.pack));
  }
  return packs;
}

std::vector<PackProblem> JoinPacks(std::vector<Pack> user, std::vector<Pack>* packs) {
  std::vector<PackProblem> problems;
  for (Pack& pack : user) {
    auto same = std::find_if(packs->begin(), packs->end(), [&](const Pack& p) { return p.name == pack.name; });
    if (same == packs->end()) {
      packs->push_back(std::move(pack));
    } else if (IsBuiltinFile(same->file)) {
      *same = std::move(pack);
    } else {
      problems.push_back({pack.file, pack.line, pack.column, "",
                          "duplicate pack name \"" + pack.name + "\": also at " +
                              Place(same->file, same->line, same->column) +
                              " (a pack replaces only a built-in pack of its name)"});
    }
  }
  std::unordered_map<std::string_view, const Rule*> first_of;
  for (const Pack& pack : *packs) {
    for (const Rule& rule : pack.rules) {
      const auto [it, inserted] = first_of.emplace(rule.id, &rule);
      if (!inserted) problems.push_back(DuplicateId(rule, *it->second));
    }
  }
  return problems;
}

Status LoadPacks(const std::string& path, std::vector<Pack>* packs) {
  *packs = DefaultPacks();
  if (path.empty()) return Status::Ok();
  std::vector<std::string> files;
  if (Status s = PackFiles(path, &files); !s.ok()) return s;
  std::vector<Pack> user;
  for (const std::string& file : files) {
    Pack pack;
    if (Status s = LoadPackFile(file, &pack); !s.ok()) return s;
    user.push_back(std::move(pack));
  }
  const std::vector<PackProblem> problems = JoinPacks(std::move(user), packs);
  if (!problems.empty()) return Status::Error(SummarizeProblems(problems, path));
  return Status::Ok();
}

std::string RulePurpose(const Rule& rule) {
  if (!rule.description.empty()) return rule.description;
  const std::string tag = "\"" + rule.tag + "\"";
  switch (rule.kind) {
    case RuleKind::kClaim:
      return "Causal language: a sentence it matches may be a claim that needs quoted evidence.";
    case RuleKind::kHedge:
      return "Marks a sentence as a hypothesis, not a claim.";
    case RuleKind::kQuestion:
      return "A question: never a claim.";
    case RuleKind::kConditional:
      return "A conditional (if, whether, unless): never a claim.";
    case RuleKind::kNegation:
      return "Rules a cause out: never a claim.";
    case RuleKind::kUncertainty:
      return "Says the cause is not known yet: never a claim.";
    case RuleKind::kRationale:
      return "The agent's account of its own edit: not a claim when it names no failure.";
    case RuleKind::kDiagnosticPrompt:
      return "The user's prompt asks for a diagnosis.";
    case RuleKind::kFailureWord:
      return "Names a failure, so the sentence can be a claim even outside a diagnosis.";
    case RuleKind::kEvidenceMarker:
      return "A line that opens the evidence section.";
    case RuleKind::kStep:
      return rule.tag.empty() ? "A step of the debug protocol." : "The debug protocol's step " + tag + ".";
    case RuleKind::kSymptom:
      return "The symptom " + tag + ", in the prompt, a claim or tool output.";
    case RuleKind::kFeature:
      if (rule.tag == "force-claim") return "Makes a sentence a claim, whatever the scorer's weights.";
      if (rule.tag == "force-exempt") return "Keeps a sentence from being a claim, whatever the scorer's weights.";
      return "A trait the claim scorer weighs: " + tag + ".";
  }
  return "";
}

}  // namespace causegate::rules
