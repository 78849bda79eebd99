// `causegate serve`: the daemon from start to stop. Loads the rules (a bad
// pack stops the start, loudly), opens the audit log, binds, writes the
// port file, and serves until SIGTERM or SIGINT, then drains the requests
// in flight. SIGHUP, POST /v1/reload and a change in the --rules folder
// (polled) reload the packs.
// Tests: tests/e2e/serve_test.py, serve_cases.py, serve_reload.py.
#pragma once

#include "evidence/status.h"
#include "server/config.h"

namespace causegate::server {

// Runs the daemon; returns after a clean stop (Ok) or when it cannot start
// or keep serving (the error says why). Reads the token from the
// environment (config.token_env) and the roots' "~" from $HOME.
Status Serve(const ServerConfig& config);

}  // namespace causegate::server
