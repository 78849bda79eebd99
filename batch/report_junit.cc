// --format junit: the JUnit XML that GitHub (test reporter actions),
// GitLab (artifacts:reports:junit) and Jenkins (junit step) read. A
// testsuite per file, a testcase per turn named by its number and prompt,
// a <failure> for each flagged turn listing its unsupported claims, and an
// unreadable file as a testsuite with one <error> testcase, so that it
// fails the report instead of vanishing from it.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "batch/report.h"

namespace causegate::batch {
namespace {

std::string Attr(const char* name, const std::string& value) {
  return std::string(" ") + name + "=\"" + EscapeXml(value) + "\"";
}

std::string FailureText(const TurnRecord& turn) {
  std::string text;
  for (const ClaimRecord& claim : turn.claims) {
    if (claim.supported()) continue;
    text += claim.finding + " (" + claim.rule + "): \"" + OneLine(claim.sentence, 300) + "\"\n";
    for (const CitationRecord& c : claim.citations) {
      text += "  quote \"" + OneLine(c.fragment, 120) + "\": found in " + c.found_in + "\n";
    }
  }
  text += "transcript line " + std::to_string(turn.final_line) + "; prompt: " + turn.prompt_excerpt + "\n";
  return text;
}

}  // namespace

std::string RenderJunit(const CheckResults& results) {
  const Summary s = Summarize(results);
  std::map<std::string, std::vector<std::size_t>> by_file;  // turns, by index
  for (std::size_t i = 0; i < results.turns.size(); ++i) by_file[results.turns.file(i)].push_back(i);

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites" + Attr("name", "causegate check") + Attr("tests", std::to_string(s.turns + s.unreadable)) +
         Attr("failures", std::to_string(s.flagged())) + Attr("errors", std::to_string(s.unreadable)) + ">\n";
  for (const FileRecord& file : results.files) {
    const std::vector<std::size_t>& turns = by_file[file.path];
    int failures = 0;
    for (const std::size_t i : turns) failures += results.turns.flagged(i);
    const int tests = static_cast<int>(turns.size()) + (file.unreadable() ? 1 : 0);
    out += "  <testsuite" + Attr("name", file.path) + Attr("tests", std::to_string(tests)) +
           Attr("failures", std::to_string(failures)) + Attr("errors", file.unreadable() ? "1" : "0") +
           Attr("skipped", "0") + Attr("time", "0") + ">\n";
    for (const std::size_t i : turns) {
      const TurnRecord whole = results.turns[i];
      const TurnRecord* turn = &whole;
      const std::string name = "turn " + std::to_string(turn->turn) + ": " + OneLine(turn->prompt_excerpt, 100);
      out += "    <testcase" + Attr("classname", file.path) + Attr("name", name) + Attr("file", file.path) +
             Attr("time", "0");
      if (!turn->flagged()) {
        out += "/>\n";
        continue;
      }
      const std::string finding = FirstFinding(*turn);
      const std::string message = std::to_string(turn->unsupported()) + " unsupported causal claim" +
                                  (turn->unsupported() == 1 ? "" : "s") + " (" + finding + ")";
      out += ">\n      <failure" + Attr("message", message) + Attr("type", turn->action) + ">" +
             EscapeXml(FailureText(*turn)) + "</failure>\n    </testcase>\n";
    }
    if (file.unreadable()) {
      out += "    <testcase" + Attr("classname", file.path) + Attr("name", "read transcript") +
             Attr("file", file.path) + Attr("time", "0") + ">\n      <error" + Attr("message", file.error) +
             Attr("type", "unreadable") + "/>\n    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace causegate::batch
