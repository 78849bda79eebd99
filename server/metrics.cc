#include "server/metrics.h"

#include <cstdio>

namespace causegate::server {
namespace {

// Prometheus label values escape backslash, double quote and newline.
std::string Escape(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (const char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

void Header(std::string* out, const char* name, const char* type, const char* help) {
  *out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

void Sample(std::string* out, const char* name, const std::string& labels, const std::string& value) {
  *out += name;
  if (!labels.empty()) *out += "{" + labels + "}";
  *out += " " + value + "\n";
}

std::string Label(const char* key, std::string_view value) { return std::string(key) + "=\"" + Escape(value) + "\""; }

}  // namespace

void Metrics::CountRequest(std::string_view route, int status) {
  std::lock_guard<std::mutex> lock(mu_);
  ++requests_[{std::string(route), status}];
}

void Metrics::RecordVerdict(const VerdictSample& sample) {
  std::lock_guard<std::mutex> lock(mu_);
  ++verdicts_[{sample.route, sample.decision}];
  for (const auto& [rule, finding] : sample.claims) {
    ++findings_[finding];
    ++rule_hits_[rule];
  }
  std::size_t b = 0;
  while (b < kLatencyBuckets.size() && sample.seconds > kLatencyBuckets[b]) ++b;
  if (b < kLatencyBuckets.size()) ++buckets_[b];
  ++latency_count_;
  latency_sum_ += sample.seconds;
}

const char* RefusalName(Refusal refusal) {
  switch (refusal) {
    case Refusal::kToken: return "token";
    case Refusal::kOutsideRoots: return "outside-roots";
  }
  return "other";
}

void Metrics::CountRefused(std::string_view route, Refusal refusal) {
  std::lock_guard<std::mutex> lock(mu_);
  ++refused_[{std::string(route), RefusalName(refusal)}];
}

void Metrics::CountFailOpen(std::string_view route) {
  std::lock_guard<std::mutex> lock(mu_);
  ++fail_open_[std::string(route)];
}

void Metrics::CountReload(ReloadResult result) {
  std::lock_guard<std::mutex> lock(mu_);
  ++(result == ReloadResult::kOk ? reloads_ok_ : reloads_failed_);
}

std::string Metrics::Render(const MetricsGauges& gauges) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  Header(&out, "causegate_requests_total", "counter", "HTTP requests answered, by route and status code.");
  for (const auto& [key, n] : requests_) {
    Sample(&out, "causegate_requests_total", Label("route", key.first) + "," + Label("status", std::to_string(key.second)),
           std::to_string(n));
  }
  Header(&out, "causegate_verdicts_total", "counter", "Turns judged, by route and decision.");
  for (const auto& [key, n] : verdicts_) {
    Sample(&out, "causegate_verdicts_total", Label("route", key.first) + "," + Label("decision", key.second),
           std::to_string(n));
  }
  Header(&out, "causegate_claims_total", "counter", "Causal claims judged, by finding.");
  for (const auto& [finding, n] : findings_) {
    Sample(&out, "causegate_claims_total", Label("finding", finding), std::to_string(n));
  }
  Header(&out, "causegate_rule_hits_total", "counter", "Claims found, by the claim rule that matched.");
  for (const auto& [rule, n] : rule_hits_) {
    Sample(&out, "causegate_rule_hits_total", Label("rule", rule), std::to_string(n));
  }
  Header(&out, "causegate_fail_open_total", "counter", "Hook requests allowed without a verdict, by route.");
  for (const auto& [route, n] : fail_open_) {
    Sample(&out, "causegate_fail_open_total", Label("route", route), std::to_string(n));
  }
  Header(&out, "causegate_refused_total", "counter", "Requests refused, by route and reason.");
  for (const auto& [key, n] : refused_) {
    Sample(&out, "causegate_refused_total", Label("route", key.first) + "," + Label("reason", key.second),
           std::to_string(n));
  }
  Header(&out, "causegate_judge_duration_seconds", "histogram", "Reading and judging one turn.");
  std::uint64_t cumulative = 0;
  for (std::size_t b = 0; b < kLatencyBuckets.size(); ++b) {
    cumulative += buckets_[b];
    Sample(&out, "causegate_judge_duration_seconds_bucket", Label("le", Number(kLatencyBuckets[b])),
           std::to_string(cumulative));
  }
  Sample(&out, "causegate_judge_duration_seconds_bucket", Label("le", "+Inf"), std::to_string(latency_count_));
  Sample(&out, "causegate_judge_duration_seconds_sum", "", Number(latency_sum_));
  Sample(&out, "causegate_judge_duration_seconds_count", "", std::to_string(latency_count_));
  Header(&out, "causegate_reloads_total", "counter", "Rule pack reloads, by result.");
  Sample(&out, "causegate_reloads_total", Label("result", "ok"), std::to_string(reloads_ok_));
  Sample(&out, "causegate_reloads_total", Label("result", "failed"), std::to_string(reloads_failed_));
  Header(&out, "causegate_rules_loaded", "gauge", "Rules in the active rule set.");
  Sample(&out, "causegate_rules_loaded", "", std::to_string(gauges.rules_loaded));
  Header(&out, "causegate_packs_loaded", "gauge", "Packs in the active rule set.");
  Sample(&out, "causegate_packs_loaded", "", std::to_string(gauges.packs_loaded));
  Header(&out, "causegate_uptime_seconds", "gauge", "Seconds since the daemon started.");
  Sample(&out, "causegate_uptime_seconds", "", Number(gauges.uptime_seconds));
  return out;
}

}  // namespace causegate::server
