// The daemon's counters, rendered in the Prometheus text exposition format
// (version 0.0.4) for GET /metrics. Metric names and labels are listed in
// server/API.md ("Metrics"). Label values come from a closed set (routes,
// status codes, agents, decisions, findings, fail-open reasons, rule ids of
// loaded packs), so the number of series stays bounded. Besides its own
// counters it exports causegate_build_info and the process_* metrics the
// Prometheus client libraries export, so dashboards made for those work.
// Thread-safe.
// Tests: tests/unit/server/metrics_test.cc.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace causegate::server {

// Upper bounds (seconds) of the judge latency histogram buckets; +Inf is implied.
inline constexpr std::array<double, 13> kLatencyBuckets = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                           0.025,  0.05,    0.1,    0.25,  0.5,   1.0};

enum class ReloadResult { kOk, kFailed };

// Why a request was refused: a closed set, so the series stay bounded.
enum class Refusal {
  kToken,             // 401: missing or wrong bearer token
  kOutsideRoots,      // a transcript path outside --transcript-root (the hook fails open)
};
const char* RefusalName(Refusal refusal);  // "token", "outside-roots"

// Why a hook request was allowed without a verdict: a closed set.
enum class FailOpenReason {
  kNoRules,       // no rule set loaded
  kOutsideRoots,  // a transcript path outside --transcript-root
  kBadInput,      // the hook input did not parse
  kTranscript,    // the transcript could not be read (missing, unreadable, no prompt)
  kInternal,      // an exception inside the daemon
};
// "no-rules", "outside-roots", "bad-input", "transcript", "internal"
const char* FailOpenReasonName(FailOpenReason reason);

// An agent name for a label: one of gate::AgentNameList()'s, "unknown"
// when none was given, "other" for any other string (a /v1/judge client
// names its agent freely; the label set must stay bounded).
std::string AgentLabel(std::string_view agent);

struct VerdictSample {
  std::string route;     // "/hook" or "/v1/judge"
  std::string agent;     // AgentLabel
  std::string decision;  // rules::ActionName: "allow", "block", "allow-unproven"
  // One (rule id, finding) per claim, supported claims included.
  std::vector<std::pair<std::string, std::string>> claims;
  double seconds = 0;    // reading the turn + judging
};

// The process, as Prometheus client libraries export it (process_*),
// read from /proc at render time (server/process_stats.h). A value that
// could not be read is negative and its sample is left out.
struct ProcessSample {
  double cpu_seconds = -1;          // user + system
  double resident_bytes = -1;
  double virtual_bytes = -1;
  double start_time_seconds = -1;   // since the epoch
  double open_fds = -1;
  double max_fds = -1;
};

// Gauges read at render time.
struct MetricsGauges {
  double uptime_seconds = 0;
  std::size_t rules_loaded = 0;
  std::size_t packs_loaded = 0;
  std::string version;              // causegate_build_info{version=...}
  ProcessSample process;
};

class Metrics {
 public:
  void CountRequest(std::string_view route, int status);
  void RecordVerdict(const VerdictSample& sample);
  // A hook request answered without a verdict (fail open), by why.
  void CountFailOpen(std::string_view route, FailOpenReason reason);
  // A refused request, by route and reason (also logged by the caller): a
  // gate that refuses its agent is silently off unless someone can see it.
  void CountRefused(std::string_view route, Refusal refusal);
  void CountReload(ReloadResult result);

  std::string Render(const MetricsGauges& gauges) const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int>, std::uint64_t> requests_;
  std::map<std::array<std::string, 3>, std::uint64_t> verdicts_;  // route, agent, decision
  std::map<std::string, std::uint64_t> findings_;
  std::map<std::string, std::uint64_t> rule_hits_;
  std::map<std::pair<std::string, std::string>, std::uint64_t> fail_open_;  // route, reason
  std::map<std::pair<std::string, std::string>, std::uint64_t> refused_;  // route, reason
  std::array<std::uint64_t, kLatencyBuckets.size()> buckets_{};  // non-cumulative
  std::uint64_t latency_count_ = 0;
  double latency_sum_ = 0;
  std::uint64_t reloads_ok_ = 0;
  std::uint64_t reloads_failed_ = 0;
};

}  // namespace causegate::server
