// --format markdown: the job summary (`>> $GITHUB_STEP_SUMMARY`): the
// totals, turns and block rate per agent and model (the summary table of
// the HTML report), unsupported claims per finding, the flagged turns (the first
// kMaxRows of them) and the unreadable files, as GitHub-flavoured tables.
#include <string>
#include <vector>

#include "batch/report.h"

namespace causegate::batch {
namespace {

constexpr int kMaxRows = 100;

// Table cells: no line breaks, no column separators, no raw HTML.
std::string Cell(std::string_view text) {
  std::string out;
  for (const char c : OneLine(text, 160)) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '`': out += "'"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::string RenderMarkdown(const CheckResults& results) {
  const Summary s = Summarize(results);
  std::string out = "## causegate check\n\n";
  if (s.flagged() == 0 && s.unreadable == 0) {
    out += "**No turn blocked.** " + SummaryLine(s) + ".\n\n";
  } else {
    out += "**" + SummaryLine(s) + ".**\n\n";
  }
  // The summary table the HTML report shows too.
  out += "| agent | model | turns | flagged | block rate |\n|---|---|---:|---:|---:|\n";
  for (const std::vector<std::string>& row : AgentTable(results)) {
    out += "| " + Cell(row[0]) + " | " + Cell(row[1]) + " | " + row[2] + " | " + row[3] + " | " + row[4] + " |\n";
  }
  out += "\n";
  if (!s.findings.empty()) {
    out += "| finding | unsupported claims |\n|---|---:|\n";
    for (const auto& [finding, n] : s.findings) out += "| " + Cell(finding) + " | " + std::to_string(n) + " |\n";
    out += "\n";
  }
  if (s.flagged() > 0) {
    out += "### Flagged turns\n\n| transcript | turn | action | finding | rule | claim |\n|---|---:|---|---|---|---|\n";
    int rows = 0;
    for (const TurnRecord& turn : results.turns) {
      if (!turn.flagged()) continue;
      for (const ClaimRecord& claim : turn.claims) {
        if (claim.supported()) continue;
        if (rows++ == kMaxRows) break;
        out += "| " + Cell(Where(turn.file, turn.final_line)) + " | " + std::to_string(turn.turn) + " | " +
               turn.action + " | " + Cell(claim.finding) + " | " + Cell(claim.rule) + " | " + Cell(claim.sentence) +
               " |\n";
      }
      if (rows > kMaxRows) break;
    }
    int total = 0;
    for (const auto& [finding, n] : s.findings) total += n;
    if (total > kMaxRows) out += "\n…and " + std::to_string(total - kMaxRows) + " more (see the full report).\n";
    out += "\n";
  }
  if (s.unreadable > 0) {
    out += "### Unreadable transcripts\n\n| transcript | error |\n|---|---|\n";
    for (const FileRecord& file : results.files) {
      if (file.unreadable()) out += "| " + Cell(file.path) + " | " + Cell(file.error) + " |\n";
    }
    out += "\n";
  }
  return out;
}

}  // namespace causegate::batch
