// --format sarif: SARIF 2.1.0 (OASIS), what GitHub code scanning
// (github/codeql-action/upload-sarif) and other SAST dashboards read. One
// result per unsupported claim, located at the transcript line of the
// turn's final message; the driver's rules are the claim rules of the
// loaded packs (id, description, pack, kind), so a result links to the
// rule that matched. An unreadable file is a tool execution notification
// and makes the invocation unsuccessful. partialFingerprints keep a claim
// the same alert across runs (file, turn and sentence).
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <string>

#include "batch/report.h"
#include "batch/baseline.h"
#include "batch/shard.h"

namespace causegate::batch {
namespace {

using nlohmann::ordered_json;

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '/';
}

// A path as a URI reference: relative paths stay relative (resolved
// against %SRCROOT%, the repository for code scanning), absolute ones
// become file:// URIs.
std::string PathUri(const std::string& path) {
  std::string out = path.rfind('/', 0) == 0 ? "file://" : "";
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char ch : ShardKey(path)) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

ordered_json Location(const std::string& path, std::int64_t line) {
  ordered_json artifact = {{"uri", PathUri(path)}};
  if (path.rfind('/', 0) != 0) artifact["uriBaseId"] = "%SRCROOT%";
  ordered_json physical = {{"artifactLocation", std::move(artifact)}};
  if (line > 0) physical["region"] = {{"startLine", line}};
  return {{"physicalLocation", std::move(physical)}};
}

ordered_json RuleDescriptor(const std::string& id, const rules::RuleSet& rules) {
  const int i = rules.FindRule(id);
  if (i < 0) return {{"id", id}, {"shortDescription", {{"text", "Causal claim rule " + id}}}};
  const rules::Rule& rule = rules.rule(i);
  const std::string text = rule.description.empty() ? "Causal claim rule " + id : rule.description;
  return {{"id", id},
          {"shortDescription", {{"text", text}}},
          {"fullDescription",
           {{"text", text + " A claim this rule finds must quote tool output that proves it (pack " + rule.pack +
                         ", " + rule.file + ":" + std::to_string(rule.line) + ")."}}},
          {"defaultConfiguration", {{"level", "error"}}},
          {"help",
           {{"text", "Quote the tool output that proves the cause (inline code, a fenced block, quotes or an "
                     "Evidence: line), or restate the cause as a hypothesis and probe further. "
                     "`causegate explain TRANSCRIPT --turn N` shows how the turn was judged."}}},
          {"properties", {{"pack", rule.pack}, {"kind", rules::RuleKindName(rule.kind)}, {"tags", {"causal-claim"}}}}};
}

}  // namespace

std::string RenderSarif(const CheckResults& results, const rules::RuleSet& rules, const ReportOptions& options) {
  // Rules: every claim rule of the packs, then ids only the results know.
  std::map<std::string, int> index;
  ordered_json descriptors = ordered_json::array();
  auto add_rule = [&](const std::string& id) {
    if (index.count(id) > 0) return;
    index[id] = static_cast<int>(descriptors.size());
    descriptors.push_back(RuleDescriptor(id, rules));
  };
  for (const rules::Rule& rule : rules.rules()) {
    if (rule.kind == rules::RuleKind::kClaim) add_rule(rule.id);
  }
  ordered_json out_results = ordered_json::array();
  for (const TurnRecord& turn : results.turns) {
    if (!turn.flagged()) continue;
    for (const ClaimRecord& claim : turn.claims) {
      if (claim.supported()) continue;
      add_rule(claim.rule);
      ordered_json citations = ordered_json::array();
      for (const CitationRecord& c : claim.citations) {
        citations.push_back({{"fragment", c.fragment}, {"foundIn", c.found_in}});
      }
      const std::string hex = ClaimFingerprint(turn, claim);
      out_results.push_back(
          {{"ruleId", claim.rule},
           {"ruleIndex", index[claim.rule]},
           {"level", turn.blocked() ? "error" : "warning"},
           {"kind", "fail"},
           {"message",
            {{"text", "Causal claim not backed by tool output (" + claim.finding + ") in turn " +
                          std::to_string(turn.turn) + ": \"" + OneLine(claim.sentence, 500) + "\""}}},
           {"locations", ordered_json::array({Location(turn.file, turn.final_line)})},
           {"partialFingerprints", {{"causegateClaim/v1", hex}}},
           {"properties",
            {{"finding", claim.finding},
             {"turn", turn.turn},
             {"action", turn.action},
             {"promptLine", turn.prompt_line},
             {"citations", std::move(citations)}}}});
    }
  }
  ordered_json notifications = ordered_json::array();
  for (const FileRecord& file : results.files) {
    if (!file.unreadable()) continue;
    notifications.push_back({{"level", "error"},
                             {"message", {{"text", file.error}}},
                             {"locations", ordered_json::array({Location(file.path, 0)})}});
  }
  ordered_json invocation = {{"executionSuccessful", notifications.empty()}};
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = std::move(notifications);
  const ordered_json sarif = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       ordered_json::array({{{"tool",
                              {{"driver",
                                {{"name", "causegate"},
                                 {"version", options.tool_version},
                                 {"rules", std::move(descriptors)}}}}},
                             {"invocations", ordered_json::array({std::move(invocation)})},
                             {"results", std::move(out_results)}}})}};
  return sarif.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace causegate::batch
