// The reports of `causegate check` and `causegate merge`, each rendered
// from CheckResults alone (so that merged shards render like one run). One
// file per format; the contract of each (fields, what counts as a failure)
// is in batch/CHECK.md.
//
//   text      for people: file:line, turn, finding, rule, the sentence
//   json      one object per turn (batch/results.h), what merge reads
//   junit     JUnit XML: a testsuite per file, a testcase per turn, a
//             failure per flagged turn, an error per unreadable file
//   sarif     SARIF 2.1.0: a result per unsupported claim at the line of the
//             turn's final message, rule metadata from the packs
//   github    workflow commands (::error file=..,line=..::) for annotations
//   markdown  a summary for $GITHUB_STEP_SUMMARY
//   html      one self-contained page: turns with their claims highlighted,
//             the tool output each citation points to, a chart per finding
// Tests: tests/unit/batch/report_test.cc, tests/e2e/check_*.py.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "batch/results.h"
#include "rules/rule_set.h"

namespace causegate::batch {

enum class ReportFormat { kText, kJson, kJunit, kSarif, kGithub, kMarkdown, kHtml };

const char* ReportFormatName(ReportFormat format);
bool ParseReportFormat(std::string_view name, ReportFormat* format);
// "text, json, junit, sarif, github, markdown, html"
std::string ReportFormatList();

struct ReportOptions {
  std::string tool_version = "0";
};

// rules supplies rule metadata (SARIF) and descriptions; a rule id in the
// results that rules does not know is reported by its id alone.
std::string RenderReport(ReportFormat format, const CheckResults& results, const rules::RuleSet& rules,
                         const ReportOptions& options);

std::string RenderText(const CheckResults& results);
std::string RenderJunit(const CheckResults& results);
std::string RenderSarif(const CheckResults& results, const rules::RuleSet& rules, const ReportOptions& options);
std::string RenderGithub(const CheckResults& results);
std::string RenderMarkdown(const CheckResults& results);
std::string RenderHtml(const CheckResults& results, const rules::RuleSet& rules, const ReportOptions& options);

// Shared by the writers: the first unsupported claim's finding of a turn
// ("" when none), and XML/HTML text escaping that also drops the code
// points XML 1.0 forbids (control characters such as ANSI escapes in tool
// output), so that every consumer can parse the file.
std::string FirstFinding(const TurnRecord& turn);
std::string EscapeXml(std::string_view text);
// text on one line (white space runs as one space), cut to max_chars code
// points with "…".
std::string OneLine(std::string_view text, std::size_t max_chars);
// "path:line" or "path" when the line is unknown (0).
std::string Where(const std::string& path, std::int64_t line);
// Turns counted per group (a day, an agent and model, a project), for the
// summary table of markdown and html and html's charts. Known turns count
// as turns, not as flagged (as in Summary).
struct GroupRow {
  std::string key;
  int turns = 0;
  int flagged = 0;
  double rate() const { return turns > 0 ? static_cast<double>(flagged) / turns : 0.0; }
};
enum class GroupKey { kDay, kAgentModel, kProject };
// Sorted by key; "unknown" stands for a turn without the field.
std::vector<GroupRow> GroupTurns(const CheckResults& results, GroupKey key);
std::string GroupOf(const TurnRecord& turn, GroupKey key);
// The "| agent | model | turns | flagged | block rate |" table both
// markdown and html show, as rows of cells.
std::vector<std::vector<std::string>> AgentTable(const CheckResults& results);

// The closing line of text and markdown: "25 files, 340 turns: 12 blocked,
// 1 let through unproven (3.8%); 1 file unreadable".
std::string SummaryLine(const Summary& summary);

}  // namespace causegate::batch
