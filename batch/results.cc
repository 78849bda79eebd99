// The JSON form of check results. Written with one turn object per line
// (so that `grep` and `jq -c` work on it) by splicing the compact objects
// the records keep, never re-encoding them; read back field by field with
// type checks, so that a hand-edited or foreign file is an error that
// names the field, not a crash.
// Tests: tests/unit/batch/results_test.cc.
#include "batch/results.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <utility>

namespace causegate::batch {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kFormatName = "causegate-check";
constexpr int kFormatVersion = 1;

std::string Str(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::int64_t Int(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

const json* Array(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_array() ? &*it : nullptr;
}

CitationRecord ParseCitation(const json& c) {
  CitationRecord out;
  out.fragment = Str(c, "fragment");
  out.origin = Str(c, "origin");
  out.found_in = Str(c, "found_in");
  out.excerpt = Str(c, "excerpt");
  const auto call = c.find("tool_call");
  if (call != c.end() && call->is_object()) {
    out.tool = Str(*call, "tool");
    out.command = Str(*call, "command");
    out.call_line = Int(*call, "line");
    out.turns_back = static_cast<int>(Int(*call, "turns_back"));
  }
  return out;
}

ClaimRecord ParseClaim(const json& c) {
  ClaimRecord out;
  out.sentence = Str(c, "sentence");
  out.rule = Str(c, "rule");
  out.finding = Str(c, "finding");
  out.lang = Str(c, "lang");
  const auto span = c.find("span");
  if (span != c.end() && span->is_array() && span->size() == 2 && (*span)[0].is_number_unsigned() &&
      (*span)[1].is_number_unsigned()) {
    out.span_begin = (*span)[0].get<std::size_t>();
    out.span_end = (*span)[1].get<std::size_t>();
  }
  if (const json* nearest = Array(c, "nearest")) {
    for (const json& n : *nearest) {
      if (n.is_object()) out.nearest.push_back({Str(n, "tool"), Str(n, "command"), Int(n, "line"), Str(n, "text")});
    }
  }
  if (const json* citations = Array(c, "citations")) {
    for (const json& citation : *citations) {
      if (citation.is_object()) out.citations.push_back(ParseCitation(citation));
    }
  }
  return out;
}

}  // namespace

Status TurnRecord::LoadJson(std::string* out) const {
  if (json_spill.file == nullptr) {
    *out = json;
    return Status::Ok();
  }
  return json_spill.file->Read(json_spill.offset, json_spill.size, out);
}

void TurnRecord::Compact() {
  std::string().swap(final_message);
  std::string().swap(reason);
  for (ClaimRecord& claim : claims) {
    std::vector<NearRecord>().swap(claim.nearest);
    for (CitationRecord& c : claim.citations) {
      std::string().swap(c.tool);
      std::string().swap(c.command);
      std::string().swap(c.excerpt);
    }
  }
}

Status TurnRecord::Full(TurnRecord* out) const {
  if (json_spill.file == nullptr) {
    *out = *this;
    return Status::Ok();
  }
  std::string object;
  if (Status s = LoadJson(&object); !s.ok()) return s;
  if (Status s = ParseTurnRecord(object, out); !s.ok()) return s;
  out->json.clear();
  out->json_spill = json_spill;
  out->known = known;
  return Status::Ok();
}

int TurnRecord::unsupported() const {
  int n = 0;
  for (const ClaimRecord& claim : claims) n += !claim.supported();
  return n;
}

Summary Summarize(const CheckResults& results) {
  Summary s;
  s.files = static_cast<int>(results.files.size());
  for (const FileRecord& file : results.files) {
    s.unreadable += file.unreadable();
    s.bytes += file.bytes;
  }
  s.turns = static_cast<int>(results.turns.size());
  for (const TurnRecord& turn : results.turns) {
    s.blocked += turn.blocked();
    s.unproven += turn.unproven();
    s.known += turn.known;
    s.claims += static_cast<int>(turn.claims.size());
    if (turn.known) continue;
    for (const ClaimRecord& claim : turn.claims) {
      if (!claim.supported()) ++s.findings[claim.finding];
    }
  }
  return s;
}

void Normalize(CheckResults* results) {
  std::stable_sort(results->files.begin(), results->files.end(),
                   [](const FileRecord& a, const FileRecord& b) { return a.path < b.path; });
  results->files.erase(std::unique(results->files.begin(), results->files.end(),
                                   [](const FileRecord& a, const FileRecord& b) { return a.path == b.path; }),
                       results->files.end());
  std::stable_sort(results->turns.begin(), results->turns.end(), [](const TurnRecord& a, const TurnRecord& b) {
    return a.file != b.file ? a.file < b.file : a.turn < b.turn;
  });
  results->turns.erase(std::unique(results->turns.begin(), results->turns.end(),
                                   [](const TurnRecord& a, const TurnRecord& b) {
                                     return a.file == b.file && a.turn == b.turn;
                                   }),
                       results->turns.end());
}

Status ParseTurnRecord(std::string_view json_text, TurnRecord* out) {
  json t;
  try {
    t = json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
  } catch (const std::exception& e) {
    return Status::Error(std::string("turn: ") + e.what());
  }
  if (!t.is_object()) return Status::Error("turn: not a JSON object");
  if (!t.contains("file") || !t["file"].is_string() || !t.contains("turn") || !t["turn"].is_number_integer()) {
    return Status::Error("turn: \"file\" (string) and \"turn\" (integer) are required");
  }
  TurnRecord r;
  try {
    r.file = Str(t, "file");
    r.turn = static_cast<int>(Int(t, "turn"));
    r.prompt_line = Int(t, "prompt_line");
    r.final_line = Int(t, "final_line");
    r.session_id = Str(t, "session_id");
    r.agent = Str(t, "agent");
    r.agent_version = Str(t, "agent_version");
    r.model = Str(t, "model");
    r.started_at = Str(t, "started_at");
    r.project = Str(t, "project");
    r.prompt_excerpt = Str(t, "prompt_excerpt");
    r.final_message = Str(t, "final_message");
    r.action = Str(t, "action");
    if (r.action.empty()) r.action = Str(t, "decision") == "block" ? "block" : "allow";
    r.prior_blocks = static_cast<int>(Int(t, "prior_blocks"));
    r.tool_calls = static_cast<int>(Int(t, "tool_calls"));
    r.reason = Str(t, "reason");
    if (r.reason.empty()) r.reason = Str(t, "system_message");
    r.known = t.contains("known") && t["known"].is_boolean() && t["known"].get<bool>();
    if (const json* claims = Array(t, "claims")) {
      for (const json& claim : *claims) {
        if (claim.is_object()) r.claims.push_back(ParseClaim(claim));
      }
    }
    r.json = t.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (const std::exception& e) {
    return Status::Error(std::string("turn: ") + e.what());
  }
  *out = std::move(r);
  return Status::Ok();
}

namespace {

enum class Unreadable { kFail, kNull };  // a spilled object that cannot be read back

Status WriteDocument(const CheckResults& results, const std::function<Status(std::string_view)>& write,
                     Unreadable unreadable) {
  const Summary s = Summarize(results);
  json findings = json::object();
  for (const auto& [finding, n] : s.findings) findings[finding] = n;
  json summary = {{"files", s.files},       {"unreadable", s.unreadable}, {"turns", s.turns},
                  {"blocked", s.blocked},   {"unproven", s.unproven},     {"block_rate", s.block_rate()},
                  {"claims", s.claims},     {"bytes", s.bytes},           {"findings", std::move(findings)}};
  if (s.known > 0) summary["known"] = s.known;
  std::string out = "{\"format\":\"" + std::string(kFormatName) + "\",\"version\":" + std::to_string(kFormatVersion) +
                    ",\n\"summary\":" + summary.dump(-1, ' ', false, json::error_handler_t::replace) +
                    ",\n\"files\":[";
  bool first = true;
  for (const FileRecord& f : results.files) {
    json file = {{"path", f.path}, {"format", f.format}, {"bytes", f.bytes}, {"turns", f.turns}};
    if (f.unreadable()) file["error"] = f.error;
    if (!f.not_judged.empty()) file["not_judged"] = f.not_judged;
    out += first ? "\n" : ",\n";
    out += file.dump(-1, ' ', false, json::error_handler_t::replace);
    first = false;
  }
  out += "],\n\"turns\":[";
  if (Status w = write(out); !w.ok()) return w;
  first = true;
  std::string object;
  for (const TurnRecord& t : results.turns) {
    if (Status r = t.LoadJson(&object); !r.ok()) {
      if (unreadable == Unreadable::kFail) return r.Within(t.file + ": turn " + std::to_string(t.turn));
      object = "null";
    }
    // A baseline marks a turn after it was judged: its object says so.
    const bool mark = t.known && object.find("\"known\":true") == std::string::npos && !object.empty() &&
                      object.back() == '}';
    if (mark) {
      object.pop_back();
      object += ",\"known\":true}";
    }
    object.insert(0, first ? "\n" : ",\n");
    if (Status w = write(object); !w.ok()) return w;
    first = false;
  }
  return write("]}\n");
}

}  // namespace

Status WriteJson(const CheckResults& results, const std::function<Status(std::string_view)>& write) {
  return WriteDocument(results, write, Unreadable::kFail);
}

std::string RenderJson(const CheckResults& results) {
  std::string out;
  // The document is most of a large check's memory at its end: sized once
  // rather than grown by doubling.
  std::size_t turn_bytes = 0;
  for (const TurnRecord& t : results.turns) turn_bytes += (t.json_spill.file ? t.json_spill.size : t.json.size()) + 16;
  out.reserve(turn_bytes + 4096);
  const Status s = WriteDocument(
      results,
      [&out](std::string_view piece) {
        out += piece;
        return Status::Ok();
      },
      Unreadable::kNull);
  (void)s;  // only write can fail it, and this one does not
  return out;
}

Status ParseResultsJson(std::string_view text, const std::string& source, CheckResults* out) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  } catch (const std::exception& e) {
    return Status::Error(source + ": " + e.what());
  }
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::Error(source + ": not check results (not one JSON object; write them with causegate check "
                                  "--format json)");
  }
  if (Str(doc, "format") != kFormatName) {
    return Status::Error(source + ": not check results (\"format\" is not \"" + kFormatName +
                         "\"; write them with causegate check --format json)");
  }
  if (Int(doc, "version") != kFormatVersion) {
    return Status::Error(source + ": results version " + std::to_string(Int(doc, "version")) +
                         " (this causegate reads version " + std::to_string(kFormatVersion) + ")");
  }
  CheckResults results;
  try {
    if (const json* files = Array(doc, "files")) {
      for (const json& f : *files) {
        if (!f.is_object() || Str(f, "path").empty()) return Status::Error(source + ": files: entry without \"path\"");
        FileRecord file;
        file.path = Str(f, "path");
        file.format = Str(f, "format");
        file.bytes = Int(f, "bytes");
        file.turns = static_cast<int>(Int(f, "turns"));
        file.error = Str(f, "error");
        file.not_judged = Str(f, "not_judged");
        results.files.push_back(std::move(file));
      }
    }
    if (const json* turns = Array(doc, "turns")) {
      std::size_t i = 0;
      for (const json& t : *turns) {
        TurnRecord record;
        if (Status s = ParseTurnRecord(t.dump(-1, ' ', false, json::error_handler_t::replace), &record); !s.ok()) {
          return Status::Error(source + ": turns[" + std::to_string(i) + "]: " + s.message());
        }
        results.turns.push_back(std::move(record));
        ++i;
      }
    }
  } catch (const std::exception& e) {
    return Status::Error(source + ": " + e.what());
  }
  *out = std::move(results);
  return Status::Ok();
}

}  // namespace causegate::batch
