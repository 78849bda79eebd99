#include "server/metrics.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/process_stats.h"

namespace causegate::server {
namespace {

bool HasLine(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (l == line) return true;
  }
  return false;
}

TEST_CASE("metrics: Prometheus text of every counter", "[server][metrics]") {
  Metrics m;
  m.CountRequest("/hook", 200);
  m.CountRequest("/hook", 200);
  m.CountRequest("/v1/judge", 400);
  m.RecordVerdict({"/hook", "claude-code", "block",
                   {{"en.claim.because", "no-citation"}, {"en.claim.root-cause", "supported"}}, 0.0003});
  m.RecordVerdict({"/hook", "codex", "allow", {}, 0.002});
  m.RecordVerdict({"/v1/judge", AgentLabel("my-own-agent"), "block", {{"en.claim.because", "fabricated"}}, 3.0});
  m.CountFailOpen("/hook", FailOpenReason::kTranscript);
  m.CountFailOpen("/hook", FailOpenReason::kTranscript);
  m.CountFailOpen("/hook", FailOpenReason::kBadInput);
  m.CountRefused("/hook", Refusal::kToken);
  m.CountRefused("/hook", Refusal::kToken);
  m.CountRefused("/hook", Refusal::kOutsideRoots);
  m.CountReload(ReloadResult::kOk);
  m.CountReload(ReloadResult::kFailed);
  m.CountReload(ReloadResult::kFailed);
  MetricsGauges g;
  g.uptime_seconds = 12.5;
  g.rules_loaded = 140;
  g.packs_loaded = 2;
  g.version = "0.9.0";
  g.process.cpu_seconds = 1.25;
  g.process.resident_bytes = 12345678901;
  g.process.start_time_seconds = 1764629411.13;
  g.process.open_fds = 9;
  const std::string text = m.Render(g);
  INFO(text);

  const char* expected[] = {
      "# TYPE causegate_requests_total counter",
      "# TYPE causegate_refused_total counter",
      R"(causegate_refused_total{route="/hook",reason="token"} 2)",
      R"(causegate_refused_total{route="/hook",reason="outside-roots"} 1)",
      R"(causegate_requests_total{route="/hook",status="200"} 2)",
      R"(causegate_requests_total{route="/v1/judge",status="400"} 1)",
      R"(causegate_verdicts_total{route="/hook",agent="codex",decision="allow"} 1)",
      R"(causegate_verdicts_total{route="/hook",agent="claude-code",decision="block"} 1)",
      R"(causegate_verdicts_total{route="/v1/judge",agent="other",decision="block"} 1)",
      R"(causegate_claims_total{finding="fabricated"} 1)",
      R"(causegate_claims_total{finding="no-citation"} 1)",
      R"(causegate_claims_total{finding="supported"} 1)",
      R"(causegate_rule_hits_total{rule="en.claim.because"} 2)",
      R"(causegate_rule_hits_total{rule="en.claim.root-cause"} 1)",
      R"(causegate_fail_open_total{route="/hook",reason="transcript"} 2)",
      R"(causegate_fail_open_total{route="/hook",reason="bad-input"} 1)",
      "# TYPE causegate_judge_duration_seconds histogram",
      R"(causegate_judge_duration_seconds_bucket{le="0.0001"} 0)",
      R"(causegate_judge_duration_seconds_bucket{le="0.00025"} 0)",
      R"(causegate_judge_duration_seconds_bucket{le="0.0005"} 1)",
      R"(causegate_judge_duration_seconds_bucket{le="0.001"} 1)",
      R"(causegate_judge_duration_seconds_bucket{le="0.0025"} 2)",
      R"(causegate_judge_duration_seconds_bucket{le="1"} 2)",
      R"(causegate_judge_duration_seconds_bucket{le="+Inf"} 3)",
      "causegate_judge_duration_seconds_sum 3.0023",
      "causegate_judge_duration_seconds_count 3",
      R"(causegate_reloads_total{result="ok"} 1)",
      R"(causegate_reloads_total{result="failed"} 2)",
      "causegate_rules_loaded 140",
      "causegate_packs_loaded 2",
      "causegate_uptime_seconds 12.5",
      "# TYPE causegate_build_info gauge",
      R"(causegate_build_info{version="0.9.0"} 1)",
      "# TYPE process_cpu_seconds_total counter",
      "process_cpu_seconds_total 1.25",
      "process_resident_memory_bytes 12345678901",
      "process_start_time_seconds 1764629411.13",
      "process_open_fds 9",
  };
  for (const char* line : expected) {
    INFO(line);
    CHECK(HasLine(text, line));
  }
  CHECK(text.back() == '\n');
  // Figures that could not be read are left out, not shown as 0.
  CHECK(text.find("process_max_fds") == std::string::npos);
  CHECK(text.find("process_virtual_memory_bytes") == std::string::npos);
}

TEST_CASE("metrics: agent labels stay a closed set", "[server][metrics]") {
  CHECK(AgentLabel("claude") == "claude-code");
  CHECK(AgentLabel("gemini-cli") == "gemini");
  CHECK(AgentLabel("") == "unknown");
  CHECK(AgentLabel("auto") == "other");
  CHECK(AgentLabel("x\"y") == "other");
}

TEST_CASE("metrics: the process figures from /proc files", "[server][metrics]") {
  const std::string root = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/causegate-proc-" +
                           std::to_string(::getpid());
  std::filesystem::create_directories(root + "/self/fd");
  for (const char* fd : {"0", "1", "2"}) std::ofstream(root + "/self/fd/" + fd) << "";
  // pid (comm with spaces) state ppid ... utime=14 stime=15 ... starttime=22 vsize=23
  std::ofstream(root + "/self/stat") << "42 (causegate serve) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 "
                                        "1000 524288000 2000 18446744073709551615\n";
  std::ofstream(root + "/self/statm") << "128000 2000 500 10 0 3000 0\n";
  std::ofstream(root + "/stat") << "cpu  1 2 3\nbtime 1764600000\nprocesses 9\n";
  const ProcessSample p = ReadProcessSample(root);
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  CHECK(p.cpu_seconds == Approx(300 / ticks));
  CHECK(p.virtual_bytes == 524288000);
  CHECK(p.resident_bytes == 2000.0 * static_cast<double>(sysconf(_SC_PAGESIZE)));
  CHECK(p.start_time_seconds == Approx(1764600000 + 1000 / ticks));
  CHECK(p.open_fds == 3);
  const ProcessSample none = ReadProcessSample(root + "/missing");
  CHECK(none.cpu_seconds < 0);
  CHECK(none.resident_bytes < 0);
  CHECK(none.open_fds < 0);
  std::filesystem::remove_all(root);

  const ProcessSample real = ReadProcessSample();
  CHECK(real.cpu_seconds >= 0);
  CHECK(real.resident_bytes > 0);
  CHECK(real.open_fds >= 3);
  CHECK(real.start_time_seconds > 1.5e9);
}

TEST_CASE("metrics: label values are escaped", "[server][metrics]") {
  Metrics m;
  m.CountRequest("a\"b\\c\nd", 404);
  const std::string text = m.Render({});
  CHECK(HasLine(text, R"(causegate_requests_total{route="a\"b\\c\nd",status="404"} 1)"));
}

TEST_CASE("metrics: a latency on a bucket bound falls in that bucket", "[server][metrics]") {
  Metrics m;
  m.RecordVerdict({"/hook", "claude-code", "allow", {}, 0.001});
  const std::string text = m.Render({});
  CHECK(HasLine(text, R"(causegate_judge_duration_seconds_bucket{le="0.0005"} 0)"));
  CHECK(HasLine(text, R"(causegate_judge_duration_seconds_bucket{le="0.001"} 1)"));
}

}  // namespace
}  // namespace causegate::server
