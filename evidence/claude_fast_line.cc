// The tool-result branch of ParseClaudeLine (claude_line.cc) over a
// simdjson DOM of the line with its long strings (the outputs) cut out
// (simd::ParseCut), so that a long output costs the copy it is read into
// and not simdjson's buffers for the whole line. It answers only when the
// line is a user line of this session whose content holds tool_result
// blocks; ParseClaudeLine returns kToolResults for exactly those lines and
// reads no other field of them, so the two agree. Anything else (prompts, assistant lines, lines simdjson
// refuses because of a bad byte or a lone surrogate escape, which
// ParseClaudeLine repairs) goes to ParseClaudeLine unchanged.
// Tests: tests/unit/evidence/claude_fast_line_test.cc.
#include "evidence/claude_fast_line.h"

#include <exception>
#include <string>
#include <utility>

#include "evidence/limits.h"
#include "evidence/simd_json.h"
#include "evidence/utf8.h"

namespace causegate::evidence {
namespace {

using simd::Element;

// tool_result content: a string, or blocks whose text parts are joined.
std::string ResultText(Element block, const simd::CutStrings& cuts) {
  Element content;
  if (!simd::Field(block, "content", &content)) return {};
  std::string out;
  if (cuts.Append(content, &out)) return out;
  simdjson::dom::array parts;
  if (content.get_array().get(parts) != simdjson::SUCCESS) return {};
  bool first = true;
  for (const Element part : parts) {
    if (simd::StringField(part, "type") != "text") continue;
    if (!first) out.push_back('\n');
    Element text;
    if (simd::Field(part, "text", &text)) cuts.Append(text, &out);
    first = false;
    if (out.size() > limits::kMaxToolOutputBytes) break;
  }
  return out;
}

// The string value of key, or "" (as simd::StringField, long strings read
// from the line).
std::string StringField(Element object, std::string_view key, const simd::CutStrings& cuts) {
  Element value;
  std::string out;
  if (simd::Field(object, key, &value)) cuts.Append(value, &out);
  return out;
}

// Fills rec->results; false when the line is not a tool-result line. The
// line is parsed with its long strings (the outputs) cut out: type names
// compared here are short, and a cut string never equals one
// (simd::kCutStringBytes).
bool ReadToolResults(std::string_view line, SessionKind kind, LineRecord* rec) {
  Element root;
  simd::CutStrings cuts;
  if (!simd::ParseCut(line, &cuts, &root) || !root.is_object()) return false;
  if (kind == SessionKind::kMain && simd::TrueField(root, "isSidechain")) {
    rec->kind = LineRecord::Kind::kIgnored;
    return true;
  }
  if (simd::StringField(root, "type") != "user") return false;
  Element message;
  Element content;
  simdjson::dom::array blocks;
  if (!simd::Field(root, "message", &message) || !simd::Field(message, "content", &content) ||
      content.get_array().get(blocks) != simdjson::SUCCESS) {
    return false;
  }
  for (const Element block : blocks) {
    if (simd::StringField(block, "type") != "tool_result") continue;
    ToolResult result;
    result.tool_use_id = StringField(block, "tool_use_id", cuts);
    result.output = ResultText(block, cuts);
    if (result.output.size() > limits::kMaxToolOutputBytes) {
      result.output.resize(Utf8Prefix(result.output, limits::kMaxToolOutputBytes).size());
    }
    result.is_error = simd::TrueField(block, "is_error");
    rec->results.push_back(std::move(result));
  }
  if (rec->results.empty()) return false;
  rec->kind = LineRecord::Kind::kToolResults;
  return true;
}

}  // namespace

LineRecord ParseClaudeLineFast(std::string_view line, SessionKind kind) {
  LineRecord rec;
  try {
    if (ReadToolResults(line, kind, &rec)) return rec;
  } catch (const std::exception&) {
    // Allocation only; ParseClaudeLine decides what the line is.
  }
  return ParseClaudeLine(line, kind);
}

}  // namespace causegate::evidence
