// `causegate hook --server URL`: hands the hook input to a running daemon
// (`causegate serve`, POST /hook) and takes its answer. The caller judges
// locally whenever this returns an error, so a daemon that is down, slow,
// refuses the token or could not judge the turn never fails the hook.
// Tests: tests/e2e/serve_test.py (hook --server, daemon up and down).
#pragma once

#include <string>
#include <string_view>

#include "evidence/status.h"

namespace causegate::hook {

struct DaemonOptions {
  std::string url;        // "http://127.0.0.1:8787" (a path prefix is kept: ".../causegate" -> ".../causegate/hook")
  int timeout_ms = 300;   // for connecting, and again for the answer
  std::string token;      // sent as "Authorization: Bearer <token>" when not ""
};

// POSTs input to the daemon's /hook. On a 200 answer that judged the turn,
// *answer is the body: exactly what `causegate hook` would print. Errors
// (the caller then judges locally): bad URL, connection refused or timed
// out, any status but 200, and a 200 that says it failed open (header
// Causegate-Fail-Open), since the daemon may be barred from a transcript
// that this process can read.
Status AskDaemon(const DaemonOptions& options, std::string_view input, std::string* answer);

// GETs the daemon's /healthz (`causegate doctor`): ok on a 200 answer,
// *body its body. Errors as AskDaemon's, without the fail-open one.
Status ProbeDaemon(const DaemonOptions& options, std::string* body);

}  // namespace causegate::hook
