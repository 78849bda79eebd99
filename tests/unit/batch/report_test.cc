// Results and reports on a small checked corpus: the JSON round trip merge
// relies on, what each report says about flagged turns and unreadable
// files, escaping, and the exit code. The reports' consumers (XML parser,
// SARIF schema, a browser) run in tests/e2e/check_*.py.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "batch/outputs.h"
#include "batch/progress.h"
#include "batch/report.h"
#include "batch/run.h"
#include "unit/batch/test_rules.h"
#include "unit/evidence/test_util.h"

namespace causegate::batch {
namespace {

using nlohmann::json;
using evidence::testing::TempDir;
namespace t = evidence::testing;

using testing::Rules;

// Two sessions and a broken file: a supported claim, a fabricated one in a
// message with markup and <html>, a turn with no claim.
struct Corpus {
  TempDir dir;
  std::vector<std::string> files;
  Corpus() {
    files.push_back(dir.Write(
        "a.jsonl", {t::Prompt("why did the export job fail?"), t::ToolUse("m1", "toolu_1", "Bash", {{"command", "dmesg"}}),
                    t::Result("toolu_1", "kernel: Out of memory: Killed process 4812 (python)\x1b[0m"),
                    t::Text("m2", "The job failed because `Out of memory: Killed process 4812`."),
                    t::Prompt("why is the api slow?"), t::ToolUse("m3", "toolu_2", "Bash", {{"command", "uptime"}}),
                    t::Result("toolu_2", "load average: 0.1"),
                    t::Text("m4", "The API is **slow** because `Connection pool exhausted: 64/64 <in use>` & more.")}));
    files.push_back(dir.Write("b c.jsonl", {t::Prompt("rename the flag"), t::Text("m1", "Renamed it.")}));
    files.push_back(dir.Write("broken.jsonl", {"not json at all"}));
  }
};

CheckResults Check(const Corpus& corpus) {
  RunOptions options;
  options.jobs = 2;
  return CheckFiles(corpus.files, *Rules(), options);
}

TEST_CASE("check results: summary and the JSON round trip", "[report]") {
  Corpus corpus;
  const CheckResults results = Check(corpus);
  REQUIRE(results.files.size() == 3);
  REQUIRE(results.turns.size() == 3);
  const Summary s = Summarize(results);
  CHECK(s.turns == 3);
  CHECK(s.blocked == 1);
  CHECK(s.unreadable == 1);
  CHECK(s.findings.at("fabricated") == 1);
  CHECK(s.block_rate() == Approx(1.0 / 3));

  const std::string text = RenderJson(results);
  const json doc = json::parse(text);
  CHECK(doc["format"] == "causegate-check");
  CHECK(doc["summary"]["blocked"] == 1);
  REQUIRE(doc["turns"].size() == 3);
  const json& blocked = doc["turns"][1];
  CHECK(blocked["file"] == corpus.files[0]);
  CHECK(blocked["turn"] == 2);
  CHECK(blocked["action"] == "block");
  CHECK(blocked["decision"] == "block");
  // What the agent got is kept: the HTML report shows it.
  CHECK(blocked["reason"].get<std::string>().rfind("causegate blocked this stop", 0) == 0);
  CHECK(blocked["prompt_excerpt"] == "why is the api slow?");
  REQUIRE(blocked["claims"].size() == 1);
  CHECK(blocked["claims"][0]["finding"] == "fabricated");
  CHECK(blocked["claims"][0]["rule"] == "en.claim.because");
  const std::string message = blocked["final_message"];
  const std::size_t b = blocked["claims"][0]["span"][0], e = blocked["claims"][0]["span"][1];
  CHECK(message.substr(b, e - b) ==
        "The API is **slow** because `Connection pool exhausted: 64/64 <in use>` & more.");
  // One turn object per line.
  CHECK(text.find("\n{\"file\":") != std::string::npos);

  CheckResults back;
  REQUIRE(ParseResultsJson(text, "r.json", &back).ok());
  CHECK(RenderJson(back) == text);

  struct Bad {
    const char* text;
    const char* error;
  };
  for (const Bad& bad : std::vector<Bad>{{"[]", "not one JSON object"},
                                         {"{\"format\":\"other\"}", "not check results"},
                                         {"{\"format\":\"causegate-check\",\"version\":9}", "version 9"},
                                         {"{\"format\":\"causegate-check\",\"version\":1,\"turns\":[{\"turn\":1}]}",
                                          "turns[0]"},
                                         {"{\"format\":\"causegate-check\",\"version\":1,\"files\":[{}]}", "path"},
                                         {"{", "r.json"}}) {
    INFO(bad.text);
    CheckResults r;
    const Status st = ParseResultsJson(bad.text, "r.json", &r);
    CHECK_FALSE(st.ok());
    CHECK(st.message().find(bad.error) != std::string::npos);
  }
}

TEST_CASE("reports say where, what and why", "[report]") {
  Corpus corpus;
  const CheckResults results = Check(corpus);
  ReportOptions options;
  options.tool_version = "9.9";

  const std::string text = RenderText(results);
  CHECK(text.find(corpus.files[0] + ":8: turn 2: block: fabricated (en.claim.because): \"The API is slow because") !=
        std::string::npos);
  CHECK(text.find(corpus.files[2] + ": unreadable: ") != std::string::npos);
  CHECK(text.find("causegate check: 3 files, 3 turns: 1 blocked (33.3%); 1 file unreadable") != std::string::npos);

  const std::string github = RenderGithub(results);
  CHECK(github.find("::error file=" + corpus.files[0] + ",line=8,title=causegate%3A fabricated (en.claim.because)::Turn 2") !=
        std::string::npos);
  CHECK(github.find("::error file=" + corpus.files[2] + ",title=causegate%3A unreadable transcript::") != std::string::npos);

  const std::string md = RenderMarkdown(results);
  CHECK(md.find("| fabricated | 1 |") != std::string::npos);
  CHECK(md.find("&lt;in use&gt;") != std::string::npos);
  CHECK(md.find("### Unreadable transcripts") != std::string::npos);

  const std::string junit = RenderJunit(results);
  CHECK(junit.find("<testsuites name=\"causegate check\" tests=\"4\" failures=\"1\" errors=\"1\">") != std::string::npos);
  CHECK(junit.find("<failure message=\"1 unsupported causal claim (fabricated)\" type=\"block\">") != std::string::npos);
  CHECK(junit.find("&lt;in use&gt;") != std::string::npos);
  CHECK(junit.find('\x1b') == std::string::npos);

  const json sarif = json::parse(RenderSarif(results, *Rules(), options));
  CHECK(sarif["version"] == "2.1.0");
  const json& run = sarif["runs"][0];
  CHECK(run["tool"]["driver"]["version"] == "9.9");
  REQUIRE(run["results"].size() == 1);
  const json& r = run["results"][0];
  CHECK(r["ruleId"] == "en.claim.because");
  CHECK(run["tool"]["driver"]["rules"][r["ruleIndex"].get<int>()]["id"] == "en.claim.because");
  CHECK(r["locations"][0]["physicalLocation"]["region"]["startLine"] == 8);
  CHECK(run["invocations"][0]["executionSuccessful"] == false);
  CHECK(run["invocations"][0]["toolExecutionNotifications"].size() == 1);

  const std::string html = RenderHtml(results, *Rules(), options);
  // The turns are data for the page's script: a JSON list whose cards hold the marks.
  const std::string open_tag = "<script type=\"application/json\" id=\"turn-data\">";
  const std::size_t data_at = html.find(open_tag);
  REQUIRE(data_at != std::string::npos);
  const std::size_t data_end = html.find("</script>", data_at);
  const std::string data_text = html.substr(data_at + open_tag.size(), data_end - data_at - open_tag.size());
  // Nothing in it can end the script element or open a comment.
  CHECK(data_text.find("</") == std::string::npos);
  CHECK(data_text.find("<!") == std::string::npos);
  CHECK(data_text.find("<\\/mark>") != std::string::npos);
  const json turns = json::parse(data_text);
  // The flagged turn first; then the one whose claim is supported.
  REQUIRE(turns.size() == 2);
  const std::string card = turns[0]["html"];
  CHECK(turns[0]["flagged"] == true);
  CHECK(turns[1]["flagged"] == false);
  CHECK(card.find("data-finding=\"fabricated\"") != std::string::npos);
  CHECK(card.find(">The API is **slow** because `Connection pool exhausted: 64/64 &lt;in use&gt;` &amp; more.</mark>") !=
        std::string::npos);
  CHECK(card.find("the reason the agent got") != std::string::npos);
  CHECK(html.find("<svg") != std::string::npos);
  for (const char* chart : {"day", "rule", "finding", "agent", "project"}) {
    INFO(chart);
    CHECK(html.find(std::string("data-chart=\"") + chart + "\"") != std::string::npos);
  }
  CHECK(html.find("src=") == std::string::npos);  // nothing loaded from elsewhere
  CHECK(html.find("https://") == std::string::npos);
  for (const ReportFormat f : {ReportFormat::kText, ReportFormat::kJson, ReportFormat::kJunit, ReportFormat::kSarif,
                               ReportFormat::kGithub, ReportFormat::kMarkdown, ReportFormat::kHtml}) {
    ReportFormat parsed;
    REQUIRE(ParseReportFormat(ReportFormatName(f), &parsed));
    CHECK(parsed == f);
    CHECK_FALSE(RenderReport(f, results, *Rules(), options).empty());
  }
}

TEST_CASE("XML escaping drops what XML cannot carry", "[report]") {
  CHECK(EscapeXml("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;");
  CHECK(EscapeXml("ok\x1b[0m\x01\ttab") == "ok\xef\xbf\xbd[0m\xef\xbf\xbd\ttab");
  CHECK(EscapeXml("bad \xff byte") == "bad \xef\xbf\xbd byte");
  CHECK(EscapeXml("中文") == "中文");
  CHECK(OneLine("  a\n\n b\t", 10) == "a b");
}

TEST_CASE("outputs, rates and exit codes", "[report]") {
  OutputSpec spec;
  REQUIRE(ParseOutputSpec("sarif=out/x.sarif", &spec).ok());
  CHECK(spec.format == ReportFormat::kSarif);
  CHECK(spec.path == "out/x.sarif");
  CHECK_FALSE(ParseOutputSpec("sarif", &spec).ok());
  CHECK_FALSE(ParseOutputSpec("pdf=x", &spec).ok());
  CHECK_FALSE(ParseOutputSpec("=x", &spec).ok());

  struct Rate {
    const char* text;
    bool ok;
    double value;
  };
  for (const Rate& r : std::vector<Rate>{{"0.05", true, 0.05}, {"5%", true, 0.05}, {"0", true, 0}, {"1", true, 1},
                                         {"1.5", false, 0}, {"-0.1", false, 0}, {"x", false, 0}, {"", false, 0}}) {
    INFO(r.text);
    double value = -1;
    CHECK(ParseRate(r.text, &value).ok() == r.ok);
    if (r.ok) CHECK(value == Approx(r.value));
  }

  Summary clean;
  clean.turns = 100;
  Summary blocked = clean;
  blocked.blocked = 4;
  Summary unproven = clean;
  unproven.unproven = 1;
  Summary unreadable = clean;
  unreadable.unreadable = 1;
  ExitPolicy strict;
  ExitPolicy tolerant;
  tolerant.max_block_rate = 0.05;
  ExitPolicy very_tolerant;
  very_tolerant.max_block_rate = 0.03;
  CHECK(ExitCode(clean, strict, 0) == 0);
  CHECK(ExitCode(blocked, strict, 0) == 1);
  CHECK(ExitCode(unproven, strict, 0) == 1);
  CHECK(ExitCode(blocked, tolerant, 0) == 0);
  CHECK(ExitCode(blocked, very_tolerant, 0) == 1);
  CHECK(ExitCode(unreadable, tolerant, 0) == 2);
  CHECK(ExitCode(clean, strict, 1) == 2);

  TempDir dir;
  Corpus corpus;
  const CheckResults results = Check(corpus);
  const std::string junit = dir.File("r.xml");
  REQUIRE(WriteReports(std::nullopt, {{ReportFormat::kJunit, junit}, {ReportFormat::kJson, dir.File("r.json")}}, results,
                       *Rules(), ReportOptions())
              .ok());
  std::ifstream in(junit);
  std::string first;
  std::getline(in, first);
  CHECK(first == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
  const Status s = WriteReports(std::nullopt, {{ReportFormat::kText, dir.File("no/such/dir/r.txt")}}, results, *Rules(),
                                ReportOptions());
  CHECK_FALSE(s.ok());
  CHECK(s.message().find("no/such/dir/r.txt") != std::string::npos);
}

TEST_CASE("results do not depend on the number of workers", "[report]") {
  Corpus corpus;
  std::vector<std::string> files = corpus.files;
  for (int i = 0; i < 6; ++i) {
    files.push_back(corpus.dir.Write("more" + std::to_string(i) + ".jsonl",
                                     {t::Prompt("why?"), t::Text("m", "It broke because of the disk " + std::to_string(i) + ".")}));
  }
  RunOptions one;
  one.jobs = 1;
  RunOptions four;
  four.jobs = 4;
  CHECK(RenderJson(CheckFiles(files, *Rules(), one)) == RenderJson(CheckFiles(files, *Rules(), four)));
  // Turn objects spilled to a file read back as those kept in memory; the
  // reports that read records in memory see the same.
  RunOptions kept = four;
  kept.spill = false;
  const CheckResults in_memory = CheckFiles(files, *Rules(), kept);
  const CheckResults spilled = CheckFiles(files, *Rules(), four);
  REQUIRE(!spilled.turns.empty());
  CHECK(spilled.turns.front().json_spill.file != nullptr);
  CHECK(spilled.turns.front().json.empty());
  CHECK(in_memory.turns.front().json_spill.file == nullptr);
  CHECK(RenderJson(in_memory) == RenderJson(spilled));
  for (const ReportFormat format : {ReportFormat::kText, ReportFormat::kSarif, ReportFormat::kJunit,
                                    ReportFormat::kMarkdown, ReportFormat::kGithub, ReportFormat::kHtml}) {
    INFO("format " << ReportFormatName(format));
    CHECK(RenderReport(format, in_memory, *Rules(), ReportOptions()) ==
          RenderReport(format, spilled, *Rules(), ReportOptions()));
  }
  CHECK(ThreadCount(0) >= 1);
  CHECK(ThreadCount(8) == 8);
  CHECK(ThreadCount(-1) >= 1);
}

TEST_CASE("the progress line", "[report]") {
  ProgressState s;
  s.files_total = 340;
  s.files_done = 12;
  s.turns = 5120;
  s.bytes_done = 200 << 20;
  s.bytes_total = 600 << 20;
  s.seconds = 2;
  CHECK(ProgressText(s) == "12/340 files, 5,120 turns, 100.0 MB/s, ETA 0:04");
  s.seconds = 0;
  CHECK(ProgressText(s) == "12/340 files, 5,120 turns, 0.0 MB/s");
}

}  // namespace
}  // namespace causegate::batch
