// The routes. /hook and /v1/judge each take one shared_ptr copy of the
// rule set at the start and judge with it to the end, so a reload in the
// middle of a request cannot mix two rule sets. Every hook request that
// reaches the gate leaves one audit line and one verdict (or fail-open) in
// the metrics.
// Tests: tests/unit/server/service_test.cc.
#include "server/service.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "rules/verdict_json.h"
#include "server/judge_request.h"
#include "server/process_stats.h"

namespace causegate::server {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

json PacksJson(const rules::RuleSet& set) {
  json packs = json::array();
  for (const rules::Pack& p : set.packs()) {
    packs.push_back({{"name", p.name}, {"version", p.version}, {"lang", p.lang}, {"file", p.file}});
  }
  return packs;
}

std::vector<std::pair<std::string, std::string>> ClaimFindings(const rules::Verdict& v, const rules::RuleSet& set) {
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(v.claims.size());
  for (const rules::Claim& c : v.claims) out.emplace_back(set.rule(c.rule).id, rules::FindingName(c.finding));
  return out;
}

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

}  // namespace

Service::Service(ServiceOptions options, RuleStore* rules, PathRoots roots, Metrics* metrics, AuditLog* audit)
    : options_(std::move(options)), rules_(rules), roots_(std::move(roots)), metrics_(metrics), audit_(audit) {}

Reply Service::Error(int status, std::string_view message) {
  Reply r;
  r.status = status;
  r.body = Dump(json{{"error", message}});
  return r;
}

Reply Service::FailOpen(FailOpenReason kind, std::string reason, const gate::HookRequest* request, double total_ms) {
  spdlog::warn("POST /hook: allowed without judging (fail-open): {}", reason);
  metrics_->CountFailOpen("/hook", kind);
  if (audit_) {
    AuditRecord record;
    record.route = "/hook";
    if (request) {
      record.session = request->session_id;
      record.agent = gate::AgentName(request->agent);
      record.event = request->event;
    }
    record.decision = "fail-open";
    record.fail_open_reason = reason;
    record.total_ms = total_ms;
    audit_->Write(record);
  }
  Reply r;
  r.fail_open_reason = std::move(reason);
  return r;
}

Reply Service::Hook(std::string_view body) {
  const auto start = Clock::now();
  const std::shared_ptr<const rules::RuleSet> rules = rules_->Current();
  if (!rules) return FailOpen(FailOpenReason::kNoRules, "no rules loaded", nullptr, MsSince(start));
  // The paths are checked before the gate opens them. Input that does not
  // parse is left to RunGate, which fails open with its own reason.
  gate::HookRequest request;
  const bool parsed = gate::ParseHookInput(body, options_.agent, &request).ok();
  if (parsed) {
    for (const std::string* path : {&request.transcript_path, &request.agent_transcript_path}) {
      if (path->empty()) continue;
      if (Status s = roots_.Check(*path); !s.ok()) {
        metrics_->CountRefused("/hook", Refusal::kOutsideRoots);
        return FailOpen(FailOpenReason::kOutsideRoots, s.message(), &request, MsSince(start));
      }
    }
  }
  // RunGate may sleep this worker while the agent finishes writing its
  // transcript (for Copilot 2 s at most by default; gate/transcript_wait.h). Other
  // connections get workers of their own (http_server.cc), so only this
  // answer waits. The request parsed above is judged as it is, not parsed
  // again.
  const gate::GateResult result = parsed ? gate::RunGateParsed(std::move(request), *rules, options_.gate)
                                         : gate::RunGate(body, options_.agent, *rules, options_.gate);
  if (!result.judged) {
    const FailOpenReason kind =
        result.fail_open == gate::FailOpen::kBadInput ? FailOpenReason::kBadInput : FailOpenReason::kTranscript;
    return FailOpen(kind, result.fail_open_reason, &result.request, MsSince(start));
  }

  Reply reply;
  // Exactly what `causegate hook` prints on stdout.
  if (!result.output.empty()) reply.body = result.output + "\n";
  reply.judge_ms = result.read_ms + result.judge_ms;
  const std::string decision = result.recorded ? "recorded" : rules::ActionName(result.outcome.action);
  const auto claims = ClaimFindings(result.verdict, *rules);
  metrics_->RecordVerdict(
      {"/hook", AgentLabel(gate::AgentName(result.request.agent)), decision, claims, reply.judge_ms / 1000});
  if (audit_) {
    AuditRecord record;
    record.route = "/hook";
    record.session = result.request.session_id;
    record.agent = gate::AgentName(result.request.agent);
    record.event = result.request.event;
    record.decision = decision;
    record.transcript = result.request.subagent() && !result.request.agent_transcript_path.empty()
                            ? result.request.agent_transcript_path
                            : result.request.transcript_path;
    record.claims = claims;
    record.block_number = result.outcome.block_number;
    record.read_ms = result.read_ms;
    record.judge_ms = result.judge_ms;
    record.total_ms = MsSince(start);
    record.prompt = result.turn.prompt;
    record.final_message = result.turn.final_message;
    audit_->Write(record);
  }
  return reply;
}

Reply Service::Judge(std::string_view body) {
  const auto start = Clock::now();
  JudgeRequest request;
  if (Status s = ParseJudgeRequest(body, &request); !s.ok()) return Error(400, s.message());
  const std::shared_ptr<const rules::RuleSet> rules = rules_->Current();
  if (!rules) return Error(503, "no rules loaded");
  const double read_ms = MsSince(start);

  const auto judge_start = Clock::now();
  InlineHistory history(&request.history);
  const rules::Verdict verdict = rules::JudgeTurn(request.turn, &history, *rules);
  const int prior_blocks = gate::PriorBlocks(request.turn, request.stop_hook_active);
  const std::string last_reason = request.turn.stop_feedback.empty() ? "" : request.turn.stop_feedback.back();
  const rules::Outcome outcome = rules::Decide(verdict, *rules, prior_blocks, last_reason, options_.gate.loop);
  const double judge_ms = MsSince(judge_start);

  Reply reply;
  reply.body = rules::VerdictToJson(verdict, *rules, &outcome) + "\n";
  reply.judge_ms = read_ms + judge_ms;
  const auto claims = ClaimFindings(verdict, *rules);
  metrics_->RecordVerdict(
      {"/v1/judge", AgentLabel(request.agent), rules::ActionName(outcome.action), claims, reply.judge_ms / 1000});
  if (audit_) {
    AuditRecord record;
    record.route = "/v1/judge";
    record.session = request.session_id;
    record.agent = request.agent;
    record.decision = rules::ActionName(outcome.action);
    record.claims = claims;
    record.block_number = outcome.block_number;
    record.read_ms = read_ms;
    record.judge_ms = judge_ms;
    record.total_ms = MsSince(start);
    record.prompt = request.turn.prompt;
    record.final_message = request.turn.final_message;
    audit_->Write(record);
  }
  return reply;
}

double Service::UptimeSeconds() const {
  return std::chrono::duration<double>(Clock::now() - started_).count();
}

Reply Service::Health() const {
  const std::shared_ptr<const rules::RuleSet> rules = rules_->Current();
  json body = {{"status", rules ? "ok" : "no-rules"},
               {"version", CAUSEGATE_VERSION},
               {"uptime_seconds", UptimeSeconds()},
               {"rules_dir", rules_->dir()},
               {"rules", rules ? rules->rules().size() : 0},
               {"packs", rules ? PacksJson(*rules) : json::array()},
               // Replicas behind one balancer can be checked for one folder.
               {"state_dir", options_.gate.state_dir.empty() ? json(nullptr) : json(options_.gate.state_dir)}};
  {
    std::lock_guard<std::mutex> lock(reload_mu_);
    body["last_reload_error"] = last_reload_error_.empty() ? json(nullptr) : json(last_reload_error_);
  }
  Reply r;
  r.status = rules ? 200 : 503;
  r.body = Dump(body);
  return r;
}

Reply Service::MetricsText() const {
  const std::shared_ptr<const rules::RuleSet> rules = rules_->Current();
  MetricsGauges gauges;
  gauges.uptime_seconds = UptimeSeconds();
  gauges.rules_loaded = rules ? rules->rules().size() : 0;
  gauges.packs_loaded = rules ? rules->packs().size() : 0;
  gauges.version = CAUSEGATE_VERSION;
  gauges.process = ReadProcessSample();
  Reply r;
  r.content_type = "text/plain; version=0.0.4; charset=utf-8";
  r.body = metrics_->Render(gauges);
  return r;
}

Reply Service::Reload(std::string_view trigger) {
  const Status s = rules_->Reload();
  metrics_->CountReload(s.ok() ? ReloadResult::kOk : ReloadResult::kFailed);
  {
    std::lock_guard<std::mutex> lock(reload_mu_);
    last_reload_error_ = s.ok() ? "" : s.message();
  }
  if (!s.ok()) {
    spdlog::error("rules reload ({}) failed; the previous rules stay: {}", trigger, s.message());
    return Error(422, s.message());
  }
  const std::shared_ptr<const rules::RuleSet> rules = rules_->Current();
  spdlog::info("rules reloaded ({}): {} rules in {} packs", trigger, rules->rules().size(), rules->packs().size());
  Reply r;
  r.body = Dump(json{{"reloaded", true}, {"rules", rules->rules().size()}, {"packs", PacksJson(*rules)}});
  return r;
}

}  // namespace causegate::server
