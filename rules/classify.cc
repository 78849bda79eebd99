// Free text through the gate's own reading: rules/message.h splits it into
// sentences with quoted spans masked (a corpus sentence that quotes someone
// is read as the gate reads an agent quoting a log), and each sentence goes
// through the one RE2::Set pass of rules/claims.h. Nothing here decides
// anything the gate does not: classify and the gate share every rule and
// every exemption, so a figure measured with classify is a figure about the
// gate, minus the turn (diagnostic prompt, citations).
//
// The stream reader holds one line at a time in a fixed buffer; a longer
// line is skipped to its end, answered with an error object and never
// buffered. Output is flushed only when the input has nothing buffered, so
// a pipe of a million lines is not a million writes, and a caller writing
// one line and waiting still gets its answer.
// Tests: tests/unit/rules/classify_test.cc, tests/e2e/classify_shape.py.
#include "rules/classify.h"

#include <algorithm>
#include <istream>
#include <limits>
#include <ostream>

#include <nlohmann/json.hpp>

#include "evidence/json_bounds.h"
#include "evidence/limits.h"
#include "evidence/utf8.h"
#include "rules/claim_scorer.h"
#include "rules/claims.h"
#include "rules/message.h"

namespace causegate::rules {
namespace {

using nlohmann::json;

// JSON text of a string, with anything unprintable escaped.
std::string Quoted(std::string_view s) {
  return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}

LineAnswer ErrorLine(const std::string& id_json, std::int64_t line_number, const std::string& what) {
  LineAnswer answer;
  answer.json =
      "{\"id\":" + id_json + ",\"error\":" + Quoted("line " + std::to_string(line_number) + ": " + what) + "}";
  answer.error = true;
  return answer;
}

bool IsHanLead(std::string_view text, std::size_t i, std::size_t* len) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  if (b0 < 0xE0 || b0 >= 0xF0 || i + 2 >= text.size()) {
    *len = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : 4;
    return false;
  }
  *len = 3;
  const unsigned cp = ((b0 & 0x0Fu) << 12) | ((static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6) |
                      (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
  // CJK Unified Ideographs and Extension A: the BMP Han blocks in use.
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF);
}

}  // namespace

TextClass ClassifyText(const RuleSet& rules, std::string_view text) {
  TextClass out;
  const Message message = ParseMessage(text);
  const MessagePlaces places(rules, message);
  for (const Sentence& sentence : message.sentences) {
    const SentenceClass sc = ClassifySentence(rules, sentence.masked);
    out.causal = out.causal || sc.causal();
    out.hedged = out.hedged || sc.hedged() || sc.hits.Has(RuleKind::kUncertainty);
    const ClaimScore score = ScoreSentence(rules, ClaimScorer::Default(), sentence.masked, sc,
                                           places.Of(sentence), /*diagnosis=*/true);
    out.claim = out.claim || score.claim;
    out.rules.insert(out.rules.end(), sc.hits.rules.begin(), sc.hits.rules.end());
  }
  std::sort(out.rules.begin(), out.rules.end());
  out.rules.erase(std::unique(out.rules.begin(), out.rules.end()), out.rules.end());
  return out;
}

std::string_view DetectLang(std::string_view text) {
  const std::string_view head = text.substr(0, kLangSniffBytes);
  std::size_t han = 0;
  std::size_t latin = 0;
  for (std::size_t i = 0; i < head.size();) {
    std::size_t len = 1;
    if (IsHanLead(head, i, &len)) {
      ++han;
    } else if (const char c = head[i]; (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      ++latin;
    }
    i += len;
  }
  return han > 0 && han * 3 >= han + latin ? "zh" : "en";
}

LineAnswer ClassifyLine(const RuleSet& rules, std::string_view line, std::int64_t line_number) {
  std::string scrubbed;
  if (!evidence::IsValidUtf8(line) || line.find('\0') != std::string_view::npos) {
    scrubbed = evidence::ScrubUtf8(line);
    line = scrubbed;
  }
  if (!evidence::JsonDepthWithin(line, limits::kMaxJsonDepth)) {
    return ErrorLine("null", line_number, "JSON nested deeper than " + std::to_string(limits::kMaxJsonDepth));
  }
  json input;
  try {
    input = json::parse(line);
  } catch (const json::exception& e) {
    return ErrorLine("null", line_number, std::string("not JSON: ") + e.what());
  }
  if (!input.is_object()) return ErrorLine("null", line_number, "not a JSON object");
  const auto id = input.find("id");
  if (id == input.end() || !(id->is_string() || id->is_number())) {
    return ErrorLine("null", line_number, "\"id\" missing or not a string or number");
  }
  const std::string id_json = id->dump(-1, ' ', false, json::error_handler_t::replace);
  const auto text = input.find("text");
  if (text == input.end() || !text->is_string()) {
    return ErrorLine(id_json, line_number, "\"text\" missing or not a string");
  }
  const std::string& body = text->get_ref<const std::string&>();
  std::string lang;
  if (const auto given = input.find("lang"); given != input.end() && !given->is_null()) {
    if (!given->is_string() || (*given != "en" && *given != "zh")) {
      return ErrorLine(id_json, line_number, "\"lang\" must be \"en\" or \"zh\"");
    }
    lang = given->get<std::string>();
  } else {
    lang = DetectLang(body);
  }

  const TextClass c = ClassifyText(rules, body);
  LineAnswer answer;
  std::string& out = answer.json;
  out = "{\"id\":" + id_json;
  out += c.causal ? ",\"causal\":true" : ",\"causal\":false";
  out += c.hedged ? ",\"hedged\":true" : ",\"hedged\":false";
  out += c.claim ? ",\"claim\":true" : ",\"claim\":false";
  out += ",\"rules\":[";
  for (std::size_t i = 0; i < c.rules.size(); ++i) {
    if (i > 0) out += ',';
    out += Quoted(rules.rule(c.rules[i]).id);
  }
  out += "],\"lang\":\"" + lang + "\"}";
  return answer;
}

ClassifyStats ClassifyStream(const RuleSet& rules, std::istream& in, std::ostream& out) {
  ClassifyStats stats;
  std::vector<char> buf(kMaxClassifyLineBytes + 1);
  const auto cap = static_cast<std::streamsize>(buf.size());
  std::int64_t line_number = 0;
  while (in) {
    if (in.rdbuf()->in_avail() <= 0) out.flush();
    in.getline(buf.data(), cap);
    const std::streamsize extracted = in.gcount();
    if (in.fail() && in.eof()) break;  // nothing left
    ++line_number;
    LineAnswer answer;
    if (in.fail()) {
      // cap - 1 bytes and still no newline: skip the rest of the line.
      in.clear();
      in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
      answer = ErrorLine("null", line_number, "line longer than " + std::to_string(kMaxClassifyLineBytes) + " bytes");
    } else {
      // A newline was extracted (counted by gcount) unless the line ended the input.
      auto length = static_cast<std::size_t>(in.eof() ? extracted : extracted - 1);
      std::string_view line(buf.data(), length);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos) continue;  // blank: no answer
      answer = ClassifyLine(rules, line, line_number);
    }
    ++stats.lines;
    if (answer.error) ++stats.errors;
    out << answer.json << '\n';
  }
  out.flush();
  return stats;
}

}  // namespace causegate::rules
