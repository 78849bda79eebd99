#include "server/metrics.h"

#include <cstdio>

#include "gate/hook_input.h"

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

// Process values reach 10^10 (bytes, epoch seconds): 15 digits keep them.
std::string Precise(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
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

const char* FailOpenReasonName(FailOpenReason reason) {
  switch (reason) {
    case FailOpenReason::kNoRules: return "no-rules";
    case FailOpenReason::kOutsideRoots: return "outside-roots";
    case FailOpenReason::kBadInput: return "bad-input";
    case FailOpenReason::kTranscript: return "transcript";
    case FailOpenReason::kInternal: return "internal";
  }
  return "other";
}

std::string AgentLabel(std::string_view agent) {
  if (agent.empty()) return "unknown";
  gate::Agent parsed = gate::Agent::kAuto;
  if (!gate::ParseAgentName(agent, &parsed) || parsed == gate::Agent::kAuto) return "other";
  return gate::AgentName(parsed);
}

void Metrics::RecordVerdict(const VerdictSample& sample) {
  std::lock_guard<std::mutex> lock(mu_);
  ++verdicts_[{sample.route, sample.agent.empty() ? "unknown" : sample.agent, sample.decision}];
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

void Metrics::CountFailOpen(std::string_view route, FailOpenReason reason) {
  std::lock_guard<std::mutex> lock(mu_);
  ++fail_open_[{std::string(route), FailOpenReasonName(reason)}];
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
  Header(&out, "causegate_verdicts_total", "counter", "Turns judged, by route, agent and decision.");
  for (const auto& [key, n] : verdicts_) {
    Sample(&out, "causegate_verdicts_total",
           Label("route", key[0]) + "," + Label("agent", key[1]) + "," + Label("decision", key[2]), std::to_string(n));
  }
  Header(&out, "causegate_claims_total", "counter", "Causal claims judged, by finding.");
  for (const auto& [finding, n] : findings_) {
    Sample(&out, "causegate_claims_total", Label("finding", finding), std::to_string(n));
  }
  Header(&out, "causegate_rule_hits_total", "counter", "Claims found, by the claim rule that matched.");
  for (const auto& [rule, n] : rule_hits_) {
    Sample(&out, "causegate_rule_hits_total", Label("rule", rule), std::to_string(n));
  }
  Header(&out, "causegate_fail_open_total", "counter", "Hook requests allowed without a verdict, by route and reason.");
  for (const auto& [key, n] : fail_open_) {
    Sample(&out, "causegate_fail_open_total", Label("route", key.first) + "," + Label("reason", key.second),
           std::to_string(n));
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
  Header(&out, "causegate_build_info", "gauge", "Always 1; the version of the causegate binary serving.");
  Sample(&out, "causegate_build_info", Label("version", gauges.version.empty() ? "unknown" : gauges.version), "1");
  const ProcessSample& p = gauges.process;
  const struct {
    const char* name;
    const char* type;
    const char* help;
    double value;
  } process[] = {
      {"process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", p.cpu_seconds},
      {"process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", p.resident_bytes},
      {"process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", p.virtual_bytes},
      {"process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.",
       p.start_time_seconds},
      {"process_open_fds", "gauge", "Number of open file descriptors.", p.open_fds},
      {"process_max_fds", "gauge", "Maximum number of open file descriptors.", p.max_fds},
  };
  for (const auto& m : process) {
    if (m.value < 0) continue;
    Header(&out, m.name, m.type, m.help);
    Sample(&out, m.name, "", Precise(m.value));
  }
  return out;
}

}  // namespace causegate::server
