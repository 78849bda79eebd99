// What each route of the daemon does, apart from HTTP: request bodies in,
// status and body out. The HTTP layer (server/http_server.h) adds
// authentication, limits and the wire; keeping the routes here lets them be
// tested without a socket. The routes and their bodies are documented in
// server/API.md.
//
// POST /hook runs gate::RunGate, the call behind `causegate hook`, so the
// answer is the hook's stdout byte for byte. Before that, every transcript
// path in the input must lie under the allowed roots. A hook request that
// cannot be judged is answered 200 with an empty body (the agent stops) and
// the reason in Reply::fail_open_reason.
// Thread-safe: any number of concurrent calls.
// Tests: tests/unit/server/service_test.cc, tests/e2e/serve_*.py.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>

#include "gate/gate.h"
#include "server/audit_log.h"
#include "server/metrics.h"
#include "server/path_roots.h"
#include "server/rule_store.h"

namespace causegate::server {

struct ServiceOptions {
  gate::Agent agent = gate::Agent::kAuto;
  gate::GateOptions gate;
};

struct Reply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string fail_open_reason;  // /hook answered without a verdict: why
  double judge_ms = -1;          // reading + judging, when a turn was judged
};

class Service {
 public:
  // rules, metrics: not owned, must outlive the service. audit: may be null.
  Service(ServiceOptions options, RuleStore* rules, PathRoots roots, Metrics* metrics, AuditLog* audit);

  Reply Hook(std::string_view body);
  Reply Judge(std::string_view body);
  Reply Health() const;
  Reply MetricsText() const;
  // Reloads the packs (trigger names the cause in the log: "SIGHUP",
  // "POST /v1/reload", "pack change"). 200 with the new packs, or 422 with
  // the error while the previous rules stay.
  Reply Reload(std::string_view trigger);

  // {"error": message} with the given status.
  static Reply Error(int status, std::string_view message);

 private:
  Reply FailOpen(FailOpenReason kind, std::string reason, const gate::HookRequest* request, double total_ms);
  double UptimeSeconds() const;

  const ServiceOptions options_;
  RuleStore* const rules_;
  const PathRoots roots_;
  Metrics* const metrics_;
  AuditLog* const audit_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  mutable std::mutex reload_mu_;
  std::string last_reload_error_;  // "" after a good reload
};

}  // namespace causegate::server
