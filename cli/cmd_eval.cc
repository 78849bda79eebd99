// `causegate eval DIR`: judges labelled cases rendered as real hook calls
// (DIR/labels.jsonl plus DIR/<id>/payload.json, the layout casegen.py
// writes) through the same gate as the live hook, and prints precision and
// recall for block per language, recall and finding agreement per finding,
// and every miss. --strict exits 1 on any decision that differs. --steps
// prints each case's debug-protocol summary (rules/protocol_steps.h).
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "evidence/utf8.h"
#include "gate/gate.h"
#include "rules/verdict_json.h"

namespace causegate::cli {
namespace {

struct Counts {
  int tp = 0, fp = 0, fn = 0, tn = 0;
  double precision() const { return tp + fp ? static_cast<double>(tp) / (tp + fp) : 1.0; }
  double recall() const { return tp + fn ? static_cast<double>(tp) / (tp + fn) : 1.0; }
  void Add(bool expected_block, bool got_block) {
    if (expected_block) {
      got_block ? ++tp : ++fn;
    } else {
      got_block ? ++fp : ++tn;
    }
  }
};

struct FindingCounts {
  int cases = 0, blocked = 0, agreed = 0;
};

std::string FirstFinding(const rules::Verdict& v) {
  for (const rules::Claim& c : v.claims) {
    if (c.finding != rules::Finding::kSupported) return rules::FindingName(c.finding);
  }
  return "";
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

void AddEvalCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("eval", "Judge rendered labelled cases and report precision and recall");
  auto dir = std::make_shared<std::string>();
  auto strict = std::make_shared<bool>(false);
  auto steps = std::make_shared<bool>(false);
  auto units_path = std::make_shared<std::string>();
  auto weights_path = std::make_shared<std::string>();
  auto shape_weights_path = std::make_shared<std::string>();
  cmd->add_option("dir", *dir, "Folder with labels.jsonl and <id>/payload.json")->required()->check(CLI::ExistingDirectory);
  cmd->add_flag("--strict", *strict, "Exit 1 when any decision differs from its label");
  cmd->add_flag("--steps", *steps, "Print every case's debug-protocol step summary");
  cmd->add_option("--units", *units_path,
                  "Write every case's sentences with their claim features and scores to this JSONL file "
                  "(the input of bench/quality/fit_scorer.py)");
  cmd->add_option("--weights", *weights_path,
                  "Claim scorer weights to judge with instead of the built-in ones (rules/scorer/claim_weights.tsv "
                  "format)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--shape-weights", *shape_weights_path,
                  "Sentence-shape model weights to judge with instead of the built-in ones "
                  "(rules/scorer/shape_weights.tsv format)")
      ->check(CLI::ExistingFile);
  cmd->callback([&common, dir, strict, steps, units_path, weights_path, shape_weights_path] {
    std::shared_ptr<const rules::RuleSet> rules;
    if (Status s = rules::LoadRuleSet(common.rules_dir, &rules); !s.ok()) {
      std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
      common.exit_code = 2;
      return;
    }
    std::ifstream labels(*dir + "/labels.jsonl");
    if (!labels) {
      std::fprintf(stderr, "causegate: %s/labels.jsonl: cannot open\n", dir->c_str());
      common.exit_code = 2;
      return;
    }
    gate::GateOptions options;
    // Saved turns never grow: judge each at its first read.
    options.transcript_wait = gate::TranscriptWait::kNever;
    rules::ClaimScorer scorer;
    rules::ClaimScorer shapes;
    for (const auto& [path, target, slot] : {std::tuple{weights_path, &scorer, &options.scorer},
                                              std::tuple{shape_weights_path, &shapes, &options.shapes}}) {
      if (path->empty()) continue;
      std::string text;
      Status s = ReadFile(*path, &text) ? rules::ClaimScorer::Parse(text, *path, target)
                                        : Status::Error(*path + ": cannot open");
      if (!s.ok()) {
        std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
        common.exit_code = 2;
        return;
      }
      *slot = target;
    }
    std::ofstream units;
    if (!units_path->empty()) {
      units.open(*units_path, std::ios::binary | std::ios::trunc);
      if (!units) {
        std::fprintf(stderr, "causegate: %s: cannot write\n", units_path->c_str());
        common.exit_code = 2;
        return;
      }
    }
    std::map<std::string, Counts> by_lang;
    std::map<std::string, FindingCounts> by_finding;
    std::vector<std::string> misses;
    std::vector<std::string> step_lines;
    int cases = 0, decisions_agree = 0, findings_agree = 0, blocked_cases = 0, errors = 0;
    std::string line;
    while (std::getline(labels, line)) {
      if (line.empty()) continue;
      const auto row = nlohmann::json::parse(line, nullptr, false);
      if (!row.is_object() || !row.contains("id")) continue;
      const std::string id = row.value("id", "");
      const std::string lang = row.value("lang", "?");
      const bool expected_block = row.value("label", "") == "block";
      const std::string expected_finding = row["finding"].is_string() ? row["finding"].get<std::string>() : "";
      std::string payload;
      if (!ReadFile(*dir + "/" + id + "/payload.json", &payload)) {
        misses.push_back(id + ": payload.json missing");
        ++errors;
        continue;
      }
      const gate::GateResult r = gate::RunGate(payload, gate::Agent::kAuto, *rules, options);
      if (!r.judged) {
        misses.push_back(id + ": not judged: " + r.fail_open_reason);
        ++errors;
      }
      if (*steps) {
        std::string summary = id + ": " + rules::StepSummaryLine(r.verdict.protocol);
        if (r.verdict.guess_fix.found) summary += " | guess-fix: " + r.verdict.guess_fix.edit_label;
        step_lines.push_back(std::move(summary));
      }
      const bool got_block = r.outcome.action == rules::Action::kBlock;
      if (units.is_open()) {
        units << "{\"id\":" << nlohmann::json(id).dump() << ",\"decision\":\"" << (got_block ? "block" : "allow")
              << "\",\"diagnostic_turn\":" << (r.verdict.diagnostic_rule >= 0 ? "true" : "false")
              << ",\"sentences\":" << rules::SentenceScoresToJson(r.verdict, *rules, /*all_sentences=*/true) << "}\n";
      }
      const std::string got_finding = FirstFinding(r.verdict);
      ++cases;
      by_lang[lang].Add(expected_block, got_block);
      by_lang["all"].Add(expected_block, got_block);
      decisions_agree += expected_block == got_block;
      if (expected_block) {
        ++blocked_cases;
        FindingCounts& fc = by_finding[expected_finding];
        ++fc.cases;
        fc.blocked += got_block;
        const bool agree = got_block && got_finding == expected_finding;
        fc.agreed += agree;
        findings_agree += agree;
      }
      if (expected_block != got_block || (expected_block && got_finding != expected_finding)) {
        std::string miss = id + ": expected " + (expected_block ? "block/" + expected_finding : "allow") + ", got " +
                           rules::ActionName(r.outcome.action) + (got_finding.empty() ? "" : "/" + got_finding);
        for (const rules::Claim& c : r.verdict.claims) {
          if (c.finding == rules::Finding::kSupported) continue;
          const std::string& text = r.verdict.message.sentences[static_cast<std::size_t>(c.sentence)].text;
          miss += "\n    \"" + std::string(evidence::Utf8Prefix(text, 160)) + "\" (" + rules->rule(c.rule).id + ")";
          break;
        }
        misses.push_back(miss);
      }
    }
    std::printf("cases: %d, decisions agree: %d, findings agree on blocked cases: %d/%d, errors: %d\n\n", cases,
                decisions_agree, findings_agree, blocked_cases, errors);
    std::printf("%-6s %9s %9s %5s %5s %5s %5s\n", "lang", "precision", "recall", "tp", "fp", "fn", "tn");
    for (const auto& [lang, c] : by_lang) {
      std::printf("%-6s %9.3f %9.3f %5d %5d %5d %5d\n", lang.c_str(), c.precision(), c.recall(), c.tp, c.fp, c.fn, c.tn);
    }
    std::printf("\n%-12s %6s %8s %8s\n", "finding", "cases", "blocked", "agreed");
    for (const auto& [finding, c] : by_finding) {
      std::printf("%-12s %6d %8d %8d\n", finding.c_str(), c.cases, c.blocked, c.agreed);
    }
    if (!step_lines.empty()) {
      std::printf("\nsteps:\n");
      for (const std::string& l : step_lines) std::printf("  %s\n", l.c_str());
    }
    if (!misses.empty()) {
      std::printf("\nmisses:\n");
      for (const std::string& m : misses) std::printf("  %s\n", m.c_str());
    }
    // The plain closing line CI readers look for.
    std::printf("\n%d passed, %d failed\n", decisions_agree, cases - decisions_agree + errors);
    common.exit_code = (*strict && (decisions_agree != cases || errors > 0)) ? 1 : 0;
  });
}

const Registrar kRegister(50, AddEvalCommand);

}  // namespace

}  // namespace causegate::cli
