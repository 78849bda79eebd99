// --format html: one page for triage that a person opens from disk, offline:
// styles, charts and script are inline, nothing is fetched.
//
// At the top the totals, the summary table (turns and block rate per agent
// and model, as the Markdown report shows it) and the charts, drawn here as
// inline SVG so they need no script: block rate per day (by the turns'
// started_at), unsupported claims per rule and per finding, block rate per
// agent and model and per project. Then the turns to look at, flagged ones
// first: each with its claims (the sentence, rule and finding, the citations
// and, for an unsupported claim, the tool lines nearest it, as `explain`
// shows them), the final message with every claim highlighted (<mark
// class="claim">, folded when long) and the reason the agent got (folded).
// The turns are data in the page (a JSON script element, only turns with
// claims or flagged) and a small script renders one page of them at a time
// and filters them by finding, rule, agent and project (also from the URL's
// #finding=..&rule=..&agent=..&project=..&page=N), so a report of 60,000
// turns opens as fast as one of 50. Without script the summary, the charts
// and the file table still show. Tests: tests/e2e/check_html.py.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "batch/report.h"

namespace causegate::batch {
namespace {

using Json = nlohmann::ordered_json;

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

// Bars a chart shows at most (the largest; the rest are summed in a note).
constexpr std::size_t kMaxBars = 20;
constexpr std::size_t kMaxDays = 120;
// A final message longer than this is folded.
constexpr std::size_t kFoldChars = 800;

const char* ColourOf(const std::string& finding) {
  for (const FindingStyle& f : kFindings) {
    if (finding == f.name) return f.colour;
  }
  return "#555";
}

constexpr const char* kStyle = R"(
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:1em 2em;color:#1b1b1b;background:#fafafa}
h1{margin:.2em 0}h2{margin-top:1.4em;border-bottom:1px solid #ddd}code,pre{font:12px/1.45 ui-monospace,Menlo,Consolas,monospace}
.summary{font-size:1.1em}.error{color:#c0392b}.quiet{color:#777}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .8em;border-bottom:1px solid #e5e5e5;text-align:left}td.n,th.n{text-align:right}
.charts{display:flex;flex-wrap:wrap;gap:1em}.charts figure{margin:0;background:#fff;border:1px solid #ddd;border-radius:4px;padding:.5em .8em}
figcaption{font-weight:600;margin-bottom:.3em}
.turn{background:#fff;border:1px solid #ddd;border-left:5px solid #1e8449;border-radius:4px;margin:.6em 0;padding:.4em .8em}
.turn.action-block{border-left-color:#c0392b}.turn.action-allow-unproven{border-left-color:#d35400}
.turn h3{font-size:1em;margin:.2em 0}.meta{color:#555;font-size:.9em}
summary{cursor:pointer}.badge{display:inline-block;padding:0 .5em;border-radius:3px;color:#fff;font-size:.85em}
.message{white-space:pre-wrap;background:#f4f4f4;padding:.6em .8em;border-radius:4px;margin:.4em 0}
mark.claim{background:none;border-bottom:3px solid;padding:0 1px}mark.cite{background:#fde68a}
pre.output,.nearest pre{background:#1e1e1e;color:#e6e6e6;padding:.5em .8em;border-radius:4px;white-space:pre-wrap;word-break:break-all}
pre.reason{white-space:pre-wrap;background:#fff8e6;padding:.5em .8em;border-radius:4px}
ol.claims>li{margin:.4em 0}#filters label{margin-right:1em}#filters select{max-width:18em}
#pager button{margin:0 .3em}.legend span{margin-right:1.2em}
)";

std::string Pct(double rate) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.1f%%", 100.0 * rate);
  return buf;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g", v);
  return buf;
}

struct Bar {
  std::string key;
  double value = 0;   // what the bar's length shows
  std::string text;   // the label after the bar
  std::string colour = "#c0392b";
};

// Horizontal bars, scaled to the largest; each <g class="bar"> carries
// data-chart, data-key and data-value for the DOM check.
std::string HorizontalChart(const std::string& chart, const std::string& label, const std::vector<Bar>& bars,
                            double max) {
  constexpr int kBarHeight = 18;
  constexpr int kLabel = 230;
  constexpr int kWidth = 600;
  const int height = static_cast<int>(bars.size()) * (kBarHeight + 6) + 6;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"chart\" data-chart=\"" + chart +
                    "\" aria-label=\"" + EscapeXml(label) + "\" width=\"" + std::to_string(kWidth) + "\" height=\"" +
                    std::to_string(height) + "\">\n";
  int y = 6;
  max = std::max(max, 1e-9);
  for (const Bar& b : bars) {
    const int w = b.value <= 0 ? 0 : std::max(2, static_cast<int>((kWidth - kLabel - 110) * b.value / max));
    svg += "<g class=\"bar\" data-chart=\"" + chart + "\" data-key=\"" + EscapeXml(b.key) + "\" data-value=\"" +
           Num(b.value) + "\"><text x=\"0\" y=\"" + std::to_string(y + 13) + "\" font-size=\"12\">" +
           EscapeXml(OneLine(b.key, 34)) + "</text><rect x=\"" + std::to_string(kLabel) + "\" y=\"" +
           std::to_string(y) + "\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(kBarHeight) +
           "\" fill=\"" + b.colour + "\"><title>" + EscapeXml(b.key + ": " + b.text) + "</title></rect><text x=\"" +
           std::to_string(kLabel + w + 5) + "\" y=\"" + std::to_string(y + 13) + "\" font-size=\"12\">" +
           EscapeXml(b.text) + "</text></g>\n";
    y += kBarHeight + 6;
  }
  return svg + "</svg>\n";
}

// Block rate per day: a column per day, oldest first.
std::string DayChart(const std::vector<GroupRow>& days) {
  constexpr int kHeight = 160;
  constexpr int kBottom = 40;
  const int n = static_cast<int>(days.size());
  const int column = std::max(6, std::min(40, 900 / std::max(n, 1)));
  const int width = std::max(300, n * column + 50);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"chart\" data-chart=\"day\" "
                    "aria-label=\"block rate per day\" width=\"" + std::to_string(width) + "\" height=\"" +
                    std::to_string(kHeight + kBottom) + "\">\n<line x1=\"40\" y1=\"" + std::to_string(kHeight) +
                    "\" x2=\"" + std::to_string(width) + "\" y2=\"" + std::to_string(kHeight) +
                    "\" stroke=\"#999\"/>\n<text x=\"0\" y=\"12\" font-size=\"11\">100%</text><text x=\"0\" y=\"" +
                    std::to_string(kHeight) + "\" font-size=\"11\">0%</text>\n";
  int x = 44;
  for (const GroupRow& d : days) {
    const int h = d.flagged == 0 ? 0 : std::max(2, static_cast<int>((kHeight - 10) * d.rate()));
    svg += "<g class=\"bar\" data-chart=\"day\" data-key=\"" + EscapeXml(d.key) + "\" data-value=\"" + Num(d.rate()) +
           "\" data-turns=\"" + std::to_string(d.turns) + "\" data-flagged=\"" + std::to_string(d.flagged) +
           "\"><rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(kHeight - h) + "\" width=\"" +
           std::to_string(column - 3) + "\" height=\"" + std::to_string(h) + "\" fill=\"#c0392b\"><title>" +
           EscapeXml(d.key + ": " + std::to_string(d.flagged) + " of " + std::to_string(d.turns) + " turns flagged (" +
                     Pct(d.rate()) + ")") +
           "</title></rect>";
    if (n <= 31 || (&d - &days[0]) % 7 == 0) {
      svg += "<text font-size=\"10\" transform=\"translate(" + std::to_string(x + column / 2) + "," +
             std::to_string(kHeight + 6) + ") rotate(60)\">" + EscapeXml(d.key.size() > 5 ? d.key.substr(5) : d.key) +
             "</text>";
    }
    svg += "</g>\n";
    x += column;
  }
  return svg + "</svg>\n";
}

// The largest groups first, at most kMaxBars; the note says what is left out.
std::vector<Bar> RateBars(std::vector<GroupRow> rows, std::string* note) {
  std::stable_sort(rows.begin(), rows.end(), [](const GroupRow& a, const GroupRow& b) { return a.turns > b.turns; });
  std::vector<Bar> bars;
  int rest = 0;
  for (const GroupRow& r : rows) {
    if (bars.size() == kMaxBars) {
      rest += r.turns;
      continue;
    }
    bars.push_back({r.key, r.rate(), Pct(r.rate()) + " of " + std::to_string(r.turns)});
  }
  if (rest > 0) *note = std::to_string(rows.size() - kMaxBars) + " more (" + std::to_string(rest) + " turns) not drawn";
  return bars;
}

std::string Figure(const std::string& caption, const std::string& svg, const std::string& note = "") {
  return "<figure><figcaption>" + EscapeXml(caption) + "</figcaption>\n" + svg +
         (note.empty() ? "" : "<p class=\"quiet\">" + EscapeXml(note) + "</p>") + "</figure>\n";
}

std::string Charts(const CheckResults& results, const Summary& s) {
  std::string out = "<div class=\"charts\">\n";
  std::vector<GroupRow> days = GroupTurns(results, GroupKey::kDay);
  std::string note;
  if (days.size() > kMaxDays) {
    note = "the last " + std::to_string(kMaxDays) + " of " + std::to_string(days.size()) + " days";
    days.erase(days.begin(), days.end() - static_cast<std::ptrdiff_t>(kMaxDays));
  }
  out += Figure("Block rate per day", DayChart(days), note);

  std::map<std::string, int> per_rule;
  std::map<std::string, int> per_finding = s.findings;
  for (const TurnRecord& turn : results.turns) {
    for (const ClaimRecord& claim : turn.claims) {
      per_finding["supported"] += claim.supported();
      if (turn.flagged() && !claim.supported()) ++per_rule[claim.rule];
    }
  }
  std::vector<std::pair<std::string, int>> rules(per_rule.begin(), per_rule.end());
  std::stable_sort(rules.begin(), rules.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<Bar> rule_bars;
  double max = 0;
  note.clear();
  for (const auto& [rule, n] : rules) {
    if (rule_bars.size() == kMaxBars) {
      note = std::to_string(rules.size() - kMaxBars) + " more rules not drawn";
      break;
    }
    rule_bars.push_back({rule, static_cast<double>(n), std::to_string(n), "#b7950b"});
    max = std::max(max, static_cast<double>(n));
  }
  out += Figure("Unsupported claims per rule", HorizontalChart("rule", "unsupported claims per rule", rule_bars, max),
                rule_bars.empty() ? "no unsupported claim" : note);

  std::vector<Bar> finding_bars;
  max = 0;
  for (const FindingStyle& f : kFindings) {
    const auto it = per_finding.find(f.name);
    const int n = it == per_finding.end() ? 0 : it->second;
    finding_bars.push_back({f.name, static_cast<double>(n), std::to_string(n), f.colour});
    max = std::max(max, static_cast<double>(n));
  }
  out += Figure("Claims per finding", HorizontalChart("finding", "claims per finding", finding_bars, max));

  note.clear();
  out += Figure("Block rate per agent and model",
                HorizontalChart("agent", "block rate per agent and model",
                                RateBars(GroupTurns(results, GroupKey::kAgentModel), &note), 1.0),
                note);
  note.clear();
  out += Figure("Block rate per project",
                HorizontalChart("project", "block rate per project",
                                RateBars(GroupTurns(results, GroupKey::kProject), &note), 1.0),
                note);
  return out + "</div>\n";
}

// The final message with each claim's span wrapped in a <mark>.
std::string HighlightedMessage(const TurnRecord& turn) {
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
    out += "<mark class=\"claim\" data-claim=\"" + std::to_string(i + 1) + "\" data-finding=\"" +
           EscapeXml(claim.finding) + "\" data-rule=\"" + EscapeXml(claim.rule) + "\" style=\"border-color:" +
           ColourOf(claim.finding) + "\" title=\"" + EscapeXml(claim.finding + " (" + claim.rule + ")") + "\">";
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

// The tool lines nearest an unsupported claim, grouped by call, as explain prints them.
std::string Nearest(const ClaimRecord& claim, bool tools_ran) {
  if (claim.nearest.empty()) {
    return tools_ran ? "<p class=\"nearest quiet\">No line of this turn's tool output shares its words.</p>" : "";
  }
  std::string out = "<div class=\"nearest\"><span class=\"quiet\">Tool output it did not quote, nearest lines:</span><pre>";
  std::string call;
  for (const NearRecord& line : claim.nearest) {
    const std::string this_call = line.tool + " " + line.command;
    if (this_call != call) {
      out += EscapeXml(OneLine(this_call, 160)) + "\n";
      call = this_call;
    }
    out += "  " + std::to_string(line.line) + ": " + EscapeXml(OneLine(line.text, 400)) + "\n";
  }
  return out + "</pre></div>";
}

// A turn's card, as the page's script inserts it.
std::string TurnCard(const TurnRecord& turn, int tool_calls) {
  const std::string badge = turn.blocked() ? "#c0392b" : turn.unproven() ? "#d35400" : "#1e8449";
  const std::string action = turn.known ? turn.action + " (known)" : turn.action;
  std::string out = "<h3>" + EscapeXml(Where(turn.file, turn.final_line)) + " · turn " + std::to_string(turn.turn) +
                    " <span class=\"badge\" style=\"background:" + badge + "\">" + EscapeXml(action) + "</span></h3>";
  out += "<div class=\"meta\">" + EscapeXml(GroupOf(turn, GroupKey::kAgentModel)) + " · " +
         EscapeXml(turn.project.empty() ? "no project" : turn.project) + " · " +
         EscapeXml(turn.started_at.empty() ? "time unknown" : turn.started_at) + "</div>";
  out += "<div class=\"prompt\"><span class=\"quiet\">prompt:</span> " + EscapeXml(OneLine(turn.prompt_excerpt, 200)) +
         "</div>";
  out += "<ol class=\"claims\">";
  for (const ClaimRecord& claim : turn.claims) {
    out += "<li class=\"claim-item\" data-finding=\"" + EscapeXml(claim.finding) + "\" data-rule=\"" +
           EscapeXml(claim.rule) + "\"><span class=\"badge\" style=\"background:" + ColourOf(claim.finding) + "\">" +
           EscapeXml(claim.finding) + "</span> <code>" + EscapeXml(claim.rule) + "</code> “" +
           EscapeXml(OneLine(claim.sentence, 400)) + "”";
    if (!claim.citations.empty()) {
      out += "<ul class=\"citations\">";
      for (const CitationRecord& c : claim.citations) out += CitationItem(c);
      out += "</ul>";
    }
    if (!claim.supported()) out += Nearest(claim, tool_calls > 0);
    out += "</li>";
  }
  out += "</ol>";
  const std::string message = "<div class=\"message\">" + HighlightedMessage(turn) + "</div>";
  if (turn.final_message.size() > kFoldChars) {
    out += "<details class=\"message-fold\"><summary>final message (" + std::to_string(turn.final_message.size()) +
           " bytes)</summary>" + message + "</details>";
  } else {
    out += message;
  }
  if (!turn.reason.empty()) {
    // A turn let through unproven (the block limit reached) sent the agent
    // nothing more; its user got a message instead.
    const char* what = turn.action == "block" ? "the reason the agent got"
                                              : "the message the user got (the agent was let through: block limit reached)";
    out += std::string("<details class=\"reason\"><summary>") + what + "</summary><pre class=\"reason\">" +
           EscapeXml(turn.reason) + "</pre></details>";
  }
  if (turn.prior_blocks > 0) {
    out += "<p class=\"quiet\">The gate had already blocked this turn " + std::to_string(turn.prior_blocks) +
           " time(s) before this stop.</p>";
  }
  return out;
}

// The turns to look at: flagged first (blocked, then unproven), then the
// rest that hold claims, each in file order.
std::string TurnData(const CheckResults& results) {
  // Chosen and ranked by what the list keeps of each turn, then read back
  // whole one turn at a time.
  const TurnList& turns = results.turns;
  std::vector<std::size_t> listed;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    if (turns.flagged(i) || turns.claims(i) > 0 || turns.known(i)) listed.push_back(i);
  }
  auto rank = [&turns](std::size_t i) { return turns.blocked(i) ? 0 : turns.unproven(i) ? 1 : 2; };
  std::stable_sort(listed.begin(), listed.end(), [&rank](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  std::string out = "[";
  bool first = true;
  for (const std::size_t i : listed) {
    const TurnRecord whole = turns[i];
    const TurnRecord* turn = &whole;
    Json findings = Json::array();
    Json rules = Json::array();
    for (const ClaimRecord& claim : turn->claims) {
      findings.push_back(claim.finding);
      rules.push_back(claim.rule);
    }
    const Json record = {{"flagged", turn->flagged()},      {"agent", turn->agent.empty() ? "unknown" : turn->agent},
                         {"project", GroupOf(*turn, GroupKey::kProject)}, {"findings", std::move(findings)},
                         {"rules", std::move(rules)},        {"html", TurnCard(*turn, turn->tool_calls)},
                         {"action", turn->action}};
    out += first ? "\n" : ",\n";
    out += record.dump(-1, ' ', false, Json::error_handler_t::replace);
    first = false;
  }
  out += "]";
  // Inside <script> nothing may end it or open a comment: "</" and "<!"
  // occur only in strings, where "<\/" and "\u003c!" read the same.
  std::string safe;
  safe.reserve(out.size() + out.size() / 16);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '<' && i + 1 < out.size() && out[i + 1] == '/') {
      safe += "<\\/";
      ++i;
    } else if (out[i] == '<' && i + 1 < out.size() && out[i + 1] == '!') {
      safe += "\\u003c";
    } else {
      safe.push_back(out[i]);
    }
  }
  return safe;
}

constexpr const char* kScript = R"JS(
(function () {
  var data = JSON.parse(document.getElementById('turn-data').textContent);
  var PAGE = 50;
  var keys = ['finding', 'rule', 'agent', 'project'];
  var state = {page: 1};
  function values(key) {
    var seen = {};
    data.forEach(function (t) {
      var v = key === 'finding' ? t.findings : key === 'rule' ? t.rules : [t[key]];
      v.forEach(function (x) { seen[x] = (seen[x] || 0) + 1; });
    });
    return Object.keys(seen).sort();
  }
  keys.forEach(function (key) {
    var select = document.getElementById('filter-' + key);
    values(key).forEach(function (v) {
      var o = document.createElement('option');
      o.value = v; o.textContent = v;
      select.appendChild(o);
    });
    select.addEventListener('change', function () { state[key] = select.value; state.page = 1; update(); });
  });
  function readHash() {
    location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
      var kv = pair.split('=');
      if (kv.length === 2) state[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1]);
    });
    state.page = Math.max(1, parseInt(state.page, 10) || 1);
    keys.forEach(function (key) { document.getElementById('filter-' + key).value = state[key] || ''; });
  }
  function matches(t) {
    return (!state.finding || t.findings.indexOf(state.finding) >= 0) &&
           (!state.rule || t.rules.indexOf(state.rule) >= 0) &&
           (!state.agent || t.agent === state.agent) &&
           (!state.project || t.project === state.project);
  }
  function update() {
    var shown = data.filter(matches);
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    state.page = Math.min(state.page, pages);
    var from = (state.page - 1) * PAGE;
    var html = [];
    shown.slice(from, from + PAGE).forEach(function (t) {
      html.push('<article class="turn action-' + t.action + '">' + t.html + '</article>');
    });
    document.getElementById('turns').innerHTML = html.join('');
    var flagged = shown.filter(function (t) { return t.flagged; }).length;
    document.getElementById('count').textContent = shown.length === 0 ? 'No turn matches.' :
        'Turns ' + (from + 1) + '–' + Math.min(from + PAGE, shown.length) + ' of ' + shown.length +
        ' (' + flagged + ' flagged), page ' + state.page + ' of ' + pages + '.';
    document.getElementById('prev').disabled = state.page <= 1;
    document.getElementById('next').disabled = state.page >= pages;
    var hash = keys.filter(function (k) { return state[k]; })
        .map(function (k) { return k + '=' + encodeURIComponent(state[k]); });
    if (state.page > 1) hash.push('page=' + state.page);
    history.replaceState(null, '', hash.length ? '#' + hash.join('&') : location.pathname);
  }
  document.getElementById('prev').addEventListener('click', function () { state.page--; update(); });
  document.getElementById('next').addEventListener('click', function () { state.page++; update(); });
  document.getElementById('reset').addEventListener('click', function () {
    keys.forEach(function (k) { state[k] = ''; });
    state.page = 1;
    keys.forEach(function (k) { document.getElementById('filter-' + k).value = ''; });
    update();
  });
  readHash();
  update();
  document.body.setAttribute('data-ready', 'true');
  // Milliseconds from the start of the page's load to the first page drawn.
  document.body.setAttribute('data-drawn-ms', String(Math.round(performance.now())));
})();
)JS";

}  // namespace

std::string RenderHtml(const CheckResults& results, const rules::RuleSet& /*rules*/, const ReportOptions& options) {
  const Summary s = Summarize(results);
  std::map<std::string, int> flagged_per_file;
  for (const TurnRecord& turn : results.turns) flagged_per_file[turn.file] += turn.flagged();

  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<meta name=\"generator\" content=\"causegate " + EscapeXml(options.tool_version) + "\">\n"
                    "<title>causegate check: " + EscapeXml(SummaryLine(s)) + "</title>\n<style>" + kStyle +
                    "</style>\n</head>\n<body>\n<h1>causegate check</h1>\n<p class=\"summary\" id=\"summary\">" +
                    EscapeXml(SummaryLine(s)) + "</p>\n";
  out += "<table class=\"agents\" id=\"agents\">\n<tr><th>agent</th><th>model</th><th class=\"n\">turns</th>"
         "<th class=\"n\">flagged</th><th class=\"n\">block rate</th></tr>\n";
  for (const std::vector<std::string>& row : AgentTable(results)) {
    out += "<tr><td>" + EscapeXml(row[0]) + "</td><td>" + EscapeXml(row[1]) + "</td><td class=\"n\">" + row[2] +
           "</td><td class=\"n\">" + row[3] + "</td><td class=\"n\">" + row[4] + "</td></tr>\n";
  }
  out += "</table>\n";
  if (s.known > 0) {
    out += "<p class=\"quiet\">" + std::to_string(s.known) + " known flagged turn(s) (baseline) are not counted.</p>\n";
  }
  out += Charts(results, s) + "<p class=\"legend\">";
  for (const FindingStyle& f : kFindings) {
    out += "<span><span class=\"badge\" style=\"background:" + std::string(f.colour) + "\">" + f.name + "</span> " +
           EscapeXml(f.meaning) + "</span> ";
  }
  out += "</p>\n<h2>Turns to look at, flagged first</h2>\n<form id=\"filters\" onsubmit=\"return false\">";
  for (const char* key : {"finding", "rule", "agent", "project"}) {
    out += std::string("<label>") + key + " <select id=\"filter-" + key + "\"><option value=\"\">all</option></select></label>";
  }
  out += "<button type=\"button\" id=\"reset\">show all</button></form>\n<p id=\"count\"></p>\n"
         "<nav id=\"pager\"><button type=\"button\" id=\"prev\">previous</button><button type=\"button\" "
         "id=\"next\">next</button></nav>\n<div id=\"turns\"></div>\n"
         "<noscript><p>The list of turns needs JavaScript; the summary, the charts and the transcripts table above "
         "and below do not.</p></noscript>\n";
  out += "<h2>Transcripts</h2>\n<table class=\"files\">\n<tr><th>transcript</th><th>format</th><th class=\"n\">turns"
         "</th><th class=\"n\">flagged</th><th></th></tr>\n";
  for (const FileRecord& file : results.files) {
    const int flagged = flagged_per_file[file.path];
    std::string note;
    if (file.unreadable()) note = "<span class=\"error\">unreadable: " + EscapeXml(OneLine(file.error, 200)) + "</span>";
    if (!file.not_judged.empty()) note = "<span class=\"quiet\">not judged: " + EscapeXml(file.not_judged) + "</span>";
    out += "<tr><td>" + EscapeXml(file.path) + "</td><td>" + EscapeXml(file.format) + "</td><td class=\"n\">" +
           std::to_string(file.turns) + "</td><td class=\"n\">" + std::to_string(flagged) + " (" +
           Pct(file.turns > 0 ? static_cast<double>(flagged) / file.turns : 0.0) + ")</td><td>" + note + "</td></tr>\n";
  }
  out += "</table>\n<script type=\"application/json\" id=\"turn-data\">" + TurnData(results) + "</script>\n<script>" +
         kScript + "</script>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace causegate::batch
