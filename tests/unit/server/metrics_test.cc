#include "server/metrics.h"

#include <catch2/catch.hpp>

#include <sstream>

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
  m.RecordVerdict({"/hook", "block", {{"en.claim.because", "no-citation"}, {"en.claim.root-cause", "supported"}}, 0.0003});
  m.RecordVerdict({"/hook", "allow", {}, 0.002});
  m.RecordVerdict({"/v1/judge", "block", {{"en.claim.because", "fabricated"}}, 3.0});
  m.CountFailOpen("/hook");
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
  const std::string text = m.Render(g);
  INFO(text);

  const char* expected[] = {
      "# TYPE causegate_requests_total counter",
      "# TYPE causegate_refused_total counter",
      R"(causegate_refused_total{route="/hook",reason="token"} 2)",
      R"(causegate_refused_total{route="/hook",reason="outside-roots"} 1)",
      R"(causegate_requests_total{route="/hook",status="200"} 2)",
      R"(causegate_requests_total{route="/v1/judge",status="400"} 1)",
      R"(causegate_verdicts_total{route="/hook",decision="allow"} 1)",
      R"(causegate_verdicts_total{route="/hook",decision="block"} 1)",
      R"(causegate_verdicts_total{route="/v1/judge",decision="block"} 1)",
      R"(causegate_claims_total{finding="fabricated"} 1)",
      R"(causegate_claims_total{finding="no-citation"} 1)",
      R"(causegate_claims_total{finding="supported"} 1)",
      R"(causegate_rule_hits_total{rule="en.claim.because"} 2)",
      R"(causegate_rule_hits_total{rule="en.claim.root-cause"} 1)",
      R"(causegate_fail_open_total{route="/hook"} 1)",
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
  };
  for (const char* line : expected) {
    INFO(line);
    CHECK(HasLine(text, line));
  }
  CHECK(text.back() == '\n');
}

TEST_CASE("metrics: label values are escaped", "[server][metrics]") {
  Metrics m;
  m.CountRequest("a\"b\\c\nd", 404);
  const std::string text = m.Render({});
  CHECK(HasLine(text, R"(causegate_requests_total{route="a\"b\\c\nd",status="404"} 1)"));
}

TEST_CASE("metrics: a latency on a bucket bound falls in that bucket", "[server][metrics]") {
  Metrics m;
  m.RecordVerdict({"/hook", "allow", {}, 0.001});
  const std::string text = m.Render({});
  CHECK(HasLine(text, R"(causegate_judge_duration_seconds_bucket{le="0.0005"} 0)"));
  CHECK(HasLine(text, R"(causegate_judge_duration_seconds_bucket{le="0.001"} 1)"));
}

}  // namespace
}  // namespace causegate::server
