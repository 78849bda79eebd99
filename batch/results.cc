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
#include <limits>
#include <memory>
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

TurnList::Entry::Entry(const Entry& other)
    : whole(other.whole != nullptr ? std::make_unique<TurnRecord>(*other.whole) : nullptr),
      offset(other.offset),
      size(other.size),
      file(other.file),
      action(other.action),
      turn(other.turn),
      claims(other.claims),
      known(other.known),
      unsupported(other.unsupported) {}

TurnList::Entry& TurnList::Entry::operator=(const Entry& other) {
  if (this != &other) *this = Entry(other);
  return *this;
}

TurnList::TurnList() = default;
TurnList::~TurnList() = default;
TurnList::TurnList(const TurnList& other) = default;
TurnList& TurnList::operator=(const TurnList& other) = default;
TurnList::TurnList(TurnList&& other) noexcept = default;
TurnList& TurnList::operator=(TurnList&& other) noexcept = default;

std::uint32_t TurnList::Intern(const std::string& name) {
  const auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(names_.size());
  names_.push_back(name);
  ids_.emplace(name, id);
  return id;
}

TurnList::Entry TurnList::Stub(const TurnRecord& record) {
  Entry e;
  e.offset = record.json_spill.offset;
  e.size = static_cast<std::uint32_t>(record.json_spill.size);
  e.file = Intern(record.file);
  e.action = Intern(record.action);
  e.turn = record.turn;
  e.claims = static_cast<int>(record.claims.size());
  e.known = record.known;
  for (const ClaimRecord& claim : record.claims) {
    if (!claim.supported()) e.unsupported.push_back(Intern(claim.finding));
  }
  e.unsupported.shrink_to_fit();
  return e;
}

void TurnList::push_back(TurnRecord record) {
  if (record.json_spill.file != nullptr && (spill_ == nullptr || spill_ == record.json_spill.file) &&
      record.json_spill.size <= std::numeric_limits<std::uint32_t>::max()) {
    spill_ = record.json_spill.file;
    entries_.push_back(Stub(record));
    return;
  }
  Entry e;
  e.whole = std::make_unique<TurnRecord>(std::move(record));
  entries_.push_back(std::move(e));
}

void TurnList::Splice(TurnList&& other) {
  // Taken from the front, each of other's blocks freed once moved.
  while (!other.entries_.empty()) {
    Entry& e = other.entries_.front();
    if (e.whole != nullptr) {
      entries_.push_back(std::move(e));
    } else if (spill_ == nullptr || spill_ == other.spill_) {
      spill_ = other.spill_;
      e.file = Intern(other.names_[e.file]);
      e.action = Intern(other.names_[e.action]);
      for (std::uint32_t& finding : e.unsupported) finding = Intern(other.names_[finding]);
      entries_.push_back(std::move(e));
    } else {
      push_back(other[0]);  // a stub of another spill file: read back whole
    }
    other.entries_.pop_front();
  }
  other = TurnList();
}

void TurnList::Load(std::size_t i, TurnRecord* out) const {
  const Entry& e = entries_[i];
  if (e.whole != nullptr) {
    *out = *e.whole;
    return;
  }
  TurnRecord stub;
  stub.file = names_[e.file];
  stub.turn = e.turn;
  stub.action = names_[e.action];
  stub.known = e.known;
  stub.json_spill = SpillRef{spill_, e.offset, e.size};
  if (!stub.Full(out).ok()) *out = std::move(stub);  // the JSON report says why
}

TurnRecord TurnList::operator[](std::size_t i) const {
  TurnRecord out;
  Load(i, &out);
  return out;
}

TurnList::const_iterator TurnList::begin() const { return const_iterator(this, 0); }
TurnList::const_iterator TurnList::end() const { return const_iterator(this, entries_.size()); }

const TurnRecord& TurnList::const_iterator::operator*() const {
  const Entry& e = list_->entries_[i_];
  if (e.whole != nullptr) return *e.whole;
  if (!loaded_) {
    list_->Load(i_, &current_);
    loaded_ = true;
  }
  return current_;
}

const std::string& TurnList::file(std::size_t i) const {
  const Entry& e = entries_[i];
  return e.whole != nullptr ? e.whole->file : names_[e.file];
}

int TurnList::turn(std::size_t i) const {
  const Entry& e = entries_[i];
  return e.whole != nullptr ? e.whole->turn : e.turn;
}

const std::string& TurnList::action(std::size_t i) const {
  const Entry& e = entries_[i];
  return e.whole != nullptr ? e.whole->action : names_[e.action];
}

bool TurnList::known(std::size_t i) const {
  const Entry& e = entries_[i];
  return e.whole != nullptr ? e.whole->known : e.known;
}

void TurnList::set_known(std::size_t i, bool known) {
  Entry& e = entries_[i];
  (e.whole != nullptr ? e.whole->known : e.known) = known;
}

int TurnList::claims(std::size_t i) const {
  const Entry& e = entries_[i];
  return e.whole != nullptr ? static_cast<int>(e.whole->claims.size()) : e.claims;
}

std::vector<std::string> TurnList::unsupported(std::size_t i) const {
  const Entry& e = entries_[i];
  std::vector<std::string> out;
  if (e.whole != nullptr) {
    for (const ClaimRecord& claim : e.whole->claims) {
      if (!claim.supported()) out.push_back(claim.finding);
    }
  } else {
    for (const std::uint32_t finding : e.unsupported) out.push_back(names_[finding]);
  }
  return out;
}

Status TurnList::LoadJson(std::size_t i, std::string* out) const {
  const Entry& e = entries_[i];
  if (e.whole != nullptr) return e.whole->LoadJson(out);
  return spill_->Read(e.offset, e.size, out);
}

std::size_t TurnList::json_bytes(std::size_t i) const {
  const Entry& e = entries_[i];
  if (e.whole == nullptr) return e.size;
  return e.whole->json_spill.file != nullptr ? e.whole->json_spill.size : e.whole->json.size();
}

void TurnList::Normalize() {
  std::vector<std::size_t> order(entries_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
    const std::string& fa = file(a);
    const std::string& fb = file(b);
    return fa != fb ? fa < fb : turn(a) < turn(b);
  });
  // A repeat of the turn before it in that order is dropped, decided
  // before any entry moves.
  std::vector<bool> repeat(order.size(), false);
  for (std::size_t k = 1; k < order.size(); ++k) {
    repeat[k] = file(order[k]) == file(order[k - 1]) && turn(order[k]) == turn(order[k - 1]);
  }
  std::deque<Entry> sorted;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (!repeat[k]) sorted.push_back(std::move(entries_[order[k]]));
  }
  entries_ = std::move(sorted);
}

Summary Summarize(const CheckResults& results) {
  Summary s;
  s.files = static_cast<int>(results.files.size());
  for (const FileRecord& file : results.files) {
    s.unreadable += file.unreadable();
    s.bytes += file.bytes;
  }
  const TurnList& turns = results.turns;
  s.turns = static_cast<int>(turns.size());
  for (std::size_t i = 0; i < turns.size(); ++i) {
    const bool known = turns.known(i);
    s.blocked += turns.blocked(i);
    s.unproven += turns.unproven(i);
    s.known += known;
    s.claims += turns.claims(i);
    if (known) continue;
    for (const std::string& finding : turns.unsupported(i)) ++s.findings[finding];
  }
  return s;
}

void Normalize(CheckResults* results) {
  std::stable_sort(results->files.begin(), results->files.end(),
                   [](const FileRecord& a, const FileRecord& b) { return a.path < b.path; });
  results->files.erase(std::unique(results->files.begin(), results->files.end(),
                                   [](const FileRecord& a, const FileRecord& b) { return a.path == b.path; }),
                       results->files.end());
  results->turns.Normalize();
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
  const TurnList& turns = results.turns;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    if (Status r = turns.LoadJson(i, &object); !r.ok()) {
      if (unreadable == Unreadable::kFail) {
        return r.Within(turns.file(i) + ": turn " + std::to_string(turns.turn(i)));
      }
      object = "null";
    }
    // A baseline marks a turn after it was judged: its object says so.
    const bool mark = turns.known(i) && object.find("\"known\":true") == std::string::npos && !object.empty() &&
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
  for (std::size_t i = 0; i < results.turns.size(); ++i) turn_bytes += results.turns.json_bytes(i) + 16;
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
