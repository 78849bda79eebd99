// --format html: one page a person opens from disk, with no server and no
// external assets (styles inline, the chart as inline SVG, no scripts). At
// the top the totals and a bar chart of claims per finding; then each
// transcript with its turns that hold claims, flagged ones open: the final
// message with every claim highlighted (<mark class="claim" data-finding=..>,
// coloured by finding), and under it each claim's rule and citations with
// the tool call and the output lines each citation points to.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "batch/report.h"

namespace causegate::batch {
namespace {

struct FindingStyle {
  const char* name;
  const char* colour;
  const char* meaning;
};

constexpr std::array<FindingStyle, 5> kFindings = {{
    {"fabricated", "#c0392b", "the quote is in no tool output, or only in output the agent printed itself"},
    {"user-only", "#d35400", "the quote is only in the user's words"},
    {"no-probe", "#8e44ad", "no tool ran in the turn"},
    {"no-citation", "#b7950b", "tools ran, but nothing they printed is quoted for the claim"},
    {"supported", "#1e8449", "a quote is in real tool output"},
}};

const char* ColourOf(const std::string& finding) {
  for (const FindingStyle& f : kFindings) {
    if (finding == f.name) return f.colour;
  }
  return "#555";
}

constexpr const char* kStyle = R"(
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:1em 2em;color:#1b1b1b;background:#fafafa}
h1{margin:.2em 0}h2{margin-top:1.6em;border-bottom:1px solid #ddd}code,pre{font:12px/1.45 ui-monospace,Menlo,Consolas,monospace}
.summary{font-size:1.1em}.error{color:#c0392b}.quiet{color:#777}
table{border-collapse:collapse}td,th{padding:.2em .8em;border-bottom:1px solid #e5e5e5;text-align:left}
details.turn{background:#fff;border:1px solid #ddd;border-left:5px solid #1e8449;border-radius:4px;margin:.6em 0;padding:.3em .8em}
details.turn.action-block{border-left-color:#c0392b}details.turn.action-allow-unproven{border-left-color:#d35400}
summary{cursor:pointer}.badge{display:inline-block;padding:0 .5em;border-radius:3px;color:#fff;font-size:.85em}
.message{white-space:pre-wrap;background:#f4f4f4;padding:.6em .8em;border-radius:4px;margin:.5em 0}
mark.claim{background:none;border-bottom:3px solid;padding:0 1px}mark.cite{background:#fde68a}
pre.output{background:#1e1e1e;color:#e6e6e6;padding:.5em .8em;border-radius:4px;white-space:pre-wrap;word-break:break-all}
.legend span{margin-right:1.2em}ol.claims>li{margin:.4em 0}
)";

std::string Pct(int part, int whole) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.1f%%", whole > 0 ? 100.0 * part / whole : 0.0);
  return buf;
}

// Horizontal bars, one per finding, scaled to the largest.
std::string Chart(const std::map<std::string, int>& counts) {
  constexpr int kBarHeight = 24;
  constexpr int kLabel = 110;
  constexpr int kWidth = 720;
  int max = 1;
  for (const FindingStyle& f : kFindings) {
    const auto it = counts.find(f.name);
    if (it != counts.end()) max = std::max(max, it->second);
  }
  const int height = static_cast<int>(kFindings.size()) * (kBarHeight + 8) + 8;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"claims per finding\" width=\"" +
                    std::to_string(kWidth) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
                    std::to_string(kWidth) + " " + std::to_string(height) + "\">\n";
  int y = 8;
  for (const FindingStyle& f : kFindings) {
    const auto it = counts.find(f.name);
    const int n = it == counts.end() ? 0 : it->second;
    const int w = n == 0 ? 0 : std::max(2, (kWidth - kLabel - 60) * n / max);
    svg += "<g class=\"bar\" data-finding=\"" + std::string(f.name) + "\" data-count=\"" + std::to_string(n) + "\">";
    svg += "<text x=\"0\" y=\"" + std::to_string(y + 17) + "\" font-size=\"13\">" + f.name + "</text>";
    svg += "<rect x=\"" + std::to_string(kLabel) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
           "\" height=\"" + std::to_string(kBarHeight) + "\" fill=\"" + f.colour + "\"><title>" + f.name + ": " +
           std::to_string(n) + " — " + EscapeXml(f.meaning) + "</title></rect>";
    svg += "<text x=\"" + std::to_string(kLabel + w + 6) + "\" y=\"" + std::to_string(y + 17) +
           "\" font-size=\"13\">" + std::to_string(n) + "</text></g>\n";
    y += kBarHeight + 8;
  }
  return svg + "</svg>\n";
}

// The final message with each claim's span wrapped in a <mark>.
std::string HighlightedMessage(const TurnRecord& turn, const std::string& id) {
  std::vector<std::size_t> order(turn.claims.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&turn](std::size_t a, std::size_t b) {
    return turn.claims[a].span_begin < turn.claims[b].span_begin;
  });
  const std::string& text = turn.final_message;
  std::string out;
  std::size_t at = 0;
  for (const std::size_t i : order) {
    const ClaimRecord& claim = turn.claims[i];
    if (claim.span_begin < at || claim.span_end <= claim.span_begin || claim.span_end > text.size()) continue;
    out += EscapeXml(std::string_view(text).substr(at, claim.span_begin - at));
    out += "<mark class=\"claim\" id=\"" + id + "-c" + std::to_string(i + 1) + "\" data-claim=\"" + std::to_string(i + 1) + "\" data-finding=\"" + EscapeXml(claim.finding) +
           "\" data-rule=\"" + EscapeXml(claim.rule) + "\" style=\"border-color:" + ColourOf(claim.finding) +
           "\" title=\"" + EscapeXml(claim.finding + " (" + claim.rule + ")") + "\">";
    out += EscapeXml(std::string_view(text).substr(claim.span_begin, claim.span_end - claim.span_begin));
    out += "</mark>";
    at = claim.span_end;
  }
  out += EscapeXml(std::string_view(text).substr(std::min(at, text.size())));
  return out;
}

// The excerpt with the quoted fragment marked where it appears as written.
std::string Excerpt(const CitationRecord& c) {
  const std::size_t at = c.excerpt.find(c.fragment);
  if (c.fragment.empty() || at == std::string::npos) return EscapeXml(c.excerpt);
  return EscapeXml(c.excerpt.substr(0, at)) + "<mark class=\"cite\">" + EscapeXml(c.fragment) + "</mark>" +
         EscapeXml(c.excerpt.substr(at + c.fragment.size()));
}

std::string CitationItem(const CitationRecord& c) {
  std::string out = "<li>quote <q>" + EscapeXml(OneLine(c.fragment, 300)) + "</q> (" + EscapeXml(c.origin) +
                    "): found in <b>" + EscapeXml(c.found_in) + "</b>";
  if (!c.tool.empty()) {
    out += " of " + EscapeXml(c.tool) + " <code>" + EscapeXml(OneLine(c.command, 160)) + "</code>";
    out += c.turns_back == 0 ? " (this turn" : " (" + std::to_string(c.turns_back) + " turn(s) back";
    if (c.call_line > 0) out += ", transcript line " + std::to_string(c.call_line);
    out += ")";
  }
  if (!c.excerpt.empty()) out += "<pre class=\"output\">" + Excerpt(c) + "</pre>";
  return out + "</li>\n";
}

std::string TurnSection(const TurnRecord& turn, int file_number) {
  const std::string id = "f" + std::to_string(file_number) + "-t" + std::to_string(turn.turn);
  const std::string badge_colour = turn.blocked() ? "#c0392b" : turn.unproven() ? "#d35400" : "#1e8449";
  std::string out = "<details class=\"turn action-" + EscapeXml(turn.action) + "\" id=\"" + id + "\"" +
                    (turn.flagged() ? " open" : "") + ">\n<summary>turn " +
                    std::to_string(turn.turn) + " <span class=\"badge\" style=\"background:" + badge_colour + "\">" +
                    EscapeXml(turn.action) + "</span> " + EscapeXml(OneLine(turn.prompt_excerpt, 120));
  if (turn.final_line > 0) out += " <span class=\"quiet\">(line " + std::to_string(turn.final_line) + ")</span>";
  out += "</summary>\n";
  if (turn.prior_blocks > 0) {
    out += "<p class=\"quiet\">The gate had already blocked this turn " + std::to_string(turn.prior_blocks) +
           " time(s) before this stop.</p>\n";
  }
  out += "<div class=\"message\">" + HighlightedMessage(turn, id) + "</div>\n<ol class=\"claims\">\n";
  for (std::size_t i = 0; i < turn.claims.size(); ++i) {
    const ClaimRecord& claim = turn.claims[i];
    out += "<li class=\"claim-item\" data-finding=\"" + EscapeXml(claim.finding) + "\"><span class=\"badge\" style=\"background:" +
           ColourOf(claim.finding) + "\">" + EscapeXml(claim.finding) + "</span> <code>" + EscapeXml(claim.rule) +
           "</code> “" + EscapeXml(OneLine(claim.sentence, 400)) + "”";
    if (claim.citations.empty()) {
      out += "<p class=\"quiet\">No quoted fragment of 8+ characters (or 4+ Han) placed with it.</p>";
    } else {
      out += "<ul class=\"citations\">\n";
      for (const CitationRecord& c : claim.citations) out += CitationItem(c);
      out += "</ul>";
    }
    out += "</li>\n";
  }
  return out + "</ol>\n</details>\n";
}

}  // namespace

std::string RenderHtml(const CheckResults& results, const rules::RuleSet& /*rules*/, const ReportOptions& options) {
  const Summary s = Summarize(results);
  std::map<std::string, int> per_finding = s.findings;
  for (const TurnRecord& turn : results.turns) {
    for (const ClaimRecord& claim : turn.claims) per_finding["supported"] += claim.supported();
  }
  std::map<std::string, std::vector<const TurnRecord*>> by_file;
  for (const TurnRecord& turn : results.turns) by_file[turn.file].push_back(&turn);

  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<meta name=\"generator\" content=\"causegate " + EscapeXml(options.tool_version) + "\">\n"
                    "<title>causegate check: " + EscapeXml(SummaryLine(s)) + "</title>\n<style>" + kStyle +
                    "</style>\n</head>\n<body>\n<h1>causegate check</h1>\n<p class=\"summary\" id=\"summary\">" +
                    EscapeXml(SummaryLine(s)) + "</p>\n";
  out += "<h2>Claims per finding</h2>\n" + Chart(per_finding) + "<p class=\"legend\">";
  for (const FindingStyle& f : kFindings) {
    out += "<span><span class=\"badge\" style=\"background:" + std::string(f.colour) + "\">" + f.name + "</span> " +
           EscapeXml(f.meaning) + "</span><br>";
  }
  out += "</p>\n<h2>Transcripts</h2>\n<table class=\"files\">\n<tr><th>transcript</th><th>format</th><th>turns</th>"
         "<th>flagged</th><th></th></tr>\n";
  int number = 0;
  for (const FileRecord& file : results.files) {
    ++number;
    int flagged = 0;
    for (const TurnRecord* turn : by_file[file.path]) flagged += turn->flagged();
    out += "<tr><td><a href=\"#f" + std::to_string(number) + "\">" + EscapeXml(file.path) + "</a></td><td>" +
           EscapeXml(file.format) + "</td><td>" + std::to_string(file.turns) + "</td><td>" + std::to_string(flagged) +
           " (" + Pct(flagged, file.turns) + ")</td><td>" +
           (file.unreadable() ? "<span class=\"error\">unreadable</span>" : "") + "</td></tr>\n";
  }
  out += "</table>\n";
  number = 0;
  for (const FileRecord& file : results.files) {
    ++number;
    out += "<section class=\"file\" id=\"f" + std::to_string(number) + "\">\n<h2>" + EscapeXml(file.path) + "</h2>\n";
    if (file.unreadable()) out += "<p class=\"error\">Unreadable: " + EscapeXml(file.error) + "</p>\n";
    int quiet = 0;
    for (const TurnRecord* turn : by_file[file.path]) {
      if (turn->claims.empty() && !turn->flagged()) {
        ++quiet;
        continue;
      }
      out += TurnSection(*turn, number);
    }
    if (quiet > 0) out += "<p class=\"quiet\">" + std::to_string(quiet) + " turn(s) without causal claims.</p>\n";
    out += "</section>\n";
  }
  return out + "</body>\n</html>\n";
}

}  // namespace causegate::batch
