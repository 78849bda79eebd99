#include "batch/report.h"

#include <array>
#include <cstdio>
#include <map>
#include <utility>

#include "rules/reason.h"

namespace causegate::batch {
namespace {

constexpr std::array<std::pair<ReportFormat, const char*>, 7> kFormats = {{
    {ReportFormat::kText, "text"},
    {ReportFormat::kJson, "json"},
    {ReportFormat::kJunit, "junit"},
    {ReportFormat::kSarif, "sarif"},
    {ReportFormat::kGithub, "github"},
    {ReportFormat::kMarkdown, "markdown"},
    {ReportFormat::kHtml, "html"},
}};

constexpr char32_t kIllFormed = 0xFFFFFFFF;

// The next code point of UTF-8 text at *i (advanced past it), or
// kIllFormed for a byte that does not start a well-formed sequence.
char32_t NextCodePoint(std::string_view text, std::size_t* i) {
  const auto c = static_cast<unsigned char>(text[*i]);
  int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || *i + static_cast<std::size_t>(len) > text.size()) {
    ++*i;
    return kIllFormed;
  }
  char32_t cp = len == 1 ? c : c & (0x7F >> len);
  for (int k = 1; k < len; ++k) {
    const auto next = static_cast<unsigned char>(text[*i + static_cast<std::size_t>(k)]);
    if ((next & 0xC0) != 0x80) {
      ++*i;
      return kIllFormed;
    }
    cp = (cp << 6) | (next & 0x3F);
  }
  *i += static_cast<std::size_t>(len);
  return cp;
}

bool IsXmlChar(char32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
         (cp >= 0x10000 && cp <= 0x10FFFF);
}

}  // namespace

const char* ReportFormatName(ReportFormat format) {
  for (const auto& [f, name] : kFormats) {
    if (f == format) return name;
  }
  return "text";
}

bool ParseReportFormat(std::string_view name, ReportFormat* format) {
  for (const auto& [f, n] : kFormats) {
    if (name == n) {
      *format = f;
      return true;
    }
  }
  return false;
}

std::string ReportFormatList() {
  std::string out;
  for (const auto& [f, name] : kFormats) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::string RenderReport(ReportFormat format, const CheckResults& results, const rules::RuleSet& rules,
                         const ReportOptions& options) {
  switch (format) {
    case ReportFormat::kText: return RenderText(results);
    case ReportFormat::kJson: return RenderJson(results);
    case ReportFormat::kJunit: return RenderJunit(results);
    case ReportFormat::kSarif: return RenderSarif(results, rules, options);
    case ReportFormat::kGithub: return RenderGithub(results);
    case ReportFormat::kMarkdown: return RenderMarkdown(results);
    case ReportFormat::kHtml: return RenderHtml(results, rules, options);
  }
  return RenderText(results);
}

std::string FirstFinding(const TurnRecord& turn) {
  for (const ClaimRecord& claim : turn.claims) {
    if (!claim.supported()) return claim.finding;
  }
  return "";
}

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&#39;"; ++i; continue;
      default: break;
    }
    const std::size_t start = i;
    const char32_t cp = NextCodePoint(text, &i);
    if (IsXmlChar(cp)) {
      out.append(text.substr(start, i - start));
    } else {
      out.append("\xef\xbf\xbd");  // U+FFFD
    }
  }
  return out;
}

std::string OneLine(std::string_view text, std::size_t max_chars) {
  std::string flat;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!flat.empty() && flat.back() != ' ') flat.push_back(' ');
    } else {
      flat.push_back(c);
    }
  }
  while (!flat.empty() && flat.back() == ' ') flat.pop_back();
  return rules::Shorten(flat, max_chars);
}

std::string Where(const std::string& path, std::int64_t line) {
  return line > 0 ? path + ":" + std::to_string(line) : path;
}

std::string SummaryLine(const Summary& s) {
  char rate[32];
  std::snprintf(rate, sizeof(rate), "%.1f%%", 100.0 * s.block_rate());
  std::string line = std::to_string(s.files) + (s.files == 1 ? " file, " : " files, ") + std::to_string(s.turns) +
                     (s.turns == 1 ? " turn: " : " turns: ") + std::to_string(s.blocked) + " blocked";
  if (s.unproven > 0) line += ", " + std::to_string(s.unproven) + " let through unproven";
  if (s.known > 0) line += ", " + std::to_string(s.known) + " known (baseline)";
  line += " (" + std::string(rate) + ")";
  if (s.unreadable > 0) {
    line += "; " + std::to_string(s.unreadable) + (s.unreadable == 1 ? " file" : " files") + " unreadable";
  }
  return line;
}

std::string GroupOf(const TurnRecord& turn, GroupKey key) {
  std::string out;
  switch (key) {
    case GroupKey::kDay:
      out = turn.started_at.size() >= 10 ? turn.started_at.substr(0, 10) : "";
      break;
    case GroupKey::kAgentModel:
      out = turn.agent.empty() ? "" : turn.model.empty() ? turn.agent : turn.agent + " " + turn.model;
      break;
    case GroupKey::kProject:
      out = turn.project;
      break;
  }
  return out.empty() ? "unknown" : out;
}

std::vector<GroupRow> GroupTurns(const CheckResults& results, GroupKey key) {
  std::map<std::string, GroupRow> rows;
  for (const TurnRecord& turn : results.turns) {
    GroupRow& row = rows[GroupOf(turn, key)];
    ++row.turns;
    row.flagged += turn.flagged();
  }
  std::vector<GroupRow> out;
  for (auto& [name, row] : rows) {
    row.key = name;
    out.push_back(row);
  }
  return out;
}

std::vector<std::vector<std::string>> AgentTable(const CheckResults& results) {
  std::map<std::pair<std::string, std::string>, GroupRow> rows;
  for (const TurnRecord& turn : results.turns) {
    GroupRow& row = rows[{turn.agent.empty() ? "unknown" : turn.agent, turn.model.empty() ? "unknown" : turn.model}];
    ++row.turns;
    row.flagged += turn.flagged();
  }
  std::vector<std::vector<std::string>> out;
  for (const auto& [key, row] : rows) {
    char rate[16];
    std::snprintf(rate, sizeof rate, "%.1f%%", 100.0 * row.rate());
    out.push_back({key.first, key.second, std::to_string(row.turns), std::to_string(row.flagged), rate});
  }
  return out;
}

}  // namespace causegate::batch
