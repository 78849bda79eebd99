// The daemon's settings: defaults, the JSON config file (keys documented in
// server/API.md, "Configuration"), and the bearer token, which comes from
// the config file, a file it names, or an environment variable, never from
// the command line (argv is world-readable in /proc).
//
// Precedence: defaults < config file < command-line flags (applied by
// cli/cmd_serve.cc after LoadServerConfig).
// Tests: tests/unit/server/config_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/limits.h"
#include "evidence/status.h"

namespace causegate::server {

// Named defaults for the daemon's bounds on outside input.
inline constexpr std::size_t kDefaultMaxBodyBytes = limits::kMaxHookInputBytes;
inline constexpr std::size_t kDefaultMaxHeaderBytes = 16u << 10;  // all header lines together
inline constexpr std::size_t kMaxHeaderCount = 100;
inline constexpr int kDefaultThreads = 16;              // workers always ready: requests served at once
inline constexpr int kDefaultMaxQueuedConnections = 64; // more workers started when requests arrive together
inline constexpr int kDefaultMaxConnections = 1024;     // open at once: idle, sending, served
inline constexpr int kDefaultReadTimeoutMs = 5000;      // a request's head in, then its body in
inline constexpr int kDefaultWriteTimeoutMs = 5000;     // per write of a response
inline constexpr int kDefaultKeepAliveTimeoutS = 5;     // idle connection kept this long
inline constexpr int kDefaultKeepAliveMaxRequests = 10000;
inline constexpr int kDefaultReloadPollMs = 1000;       // pack folder mtime poll
inline constexpr std::size_t kDefaultAuditLogMaxBytes = 64u << 20;
inline constexpr int kDefaultAuditLogFiles = 5;
inline constexpr int kMinTokenLength = 16;
inline constexpr std::size_t kMaxConfigFileBytes = 1u << 20;  // the config file and token_file
inline constexpr const char* kDefaultTokenEnv = "CAUSEGATE_TOKEN";

struct ServerConfig {
  std::string host = "127.0.0.1";
  int port = 8787;                 // 0: any free port (see port_file)
  std::string rules_dir;           // extra packs (a file or folder), watched ("" = built-in only)
  std::string audit_log;           // JSONL file ("" = no audit log)
  std::size_t audit_log_max_bytes = kDefaultAuditLogMaxBytes;
  int audit_log_files = kDefaultAuditLogFiles;
  bool log_text = false;           // audit lines carry the prompt and final message
  std::string token;               // inline token (config file only)
  std::string token_file;          // file holding the token
  std::string token_env = kDefaultTokenEnv;
  std::vector<std::string> roots;  // transcript roots ("" entries invalid; empty = defaults)
  int threads = kDefaultThreads;
  int max_queued_connections = kDefaultMaxQueuedConnections;
  int max_connections = kDefaultMaxConnections;
  std::size_t max_body_bytes = kDefaultMaxBodyBytes;
  std::size_t max_header_bytes = kDefaultMaxHeaderBytes;
  int read_timeout_ms = kDefaultReadTimeoutMs;
  int write_timeout_ms = kDefaultWriteTimeoutMs;
  int keep_alive_timeout_s = kDefaultKeepAliveTimeoutS;
  int keep_alive_max_requests = kDefaultKeepAliveMaxRequests;
  int reload_poll_ms = kDefaultReloadPollMs;  // 0: no polling
  std::string port_file;           // "host:port\n" written once bound
  int max_blocks = 2;              // loop policy, as `causegate hook --max-blocks`
  std::string agent = "auto";      // hook protocol, as `causegate hook --agent`
  std::string state_dir;           // per-session state (gate/state_dir.h); "" = the hook's,
                                   // $XDG_STATE_HOME/causegate or ~/.local/state/causegate
};

// Parses a config file's text over *config (keys absent keep their value).
// Errors: not a JSON object, an unknown key, a value of the wrong type or
// out of range; the message names the key ("config.json: \"threads\": ...").
Status ParseServerConfig(std::string_view json_text, const std::string& file, ServerConfig* config);

// Reads and parses path over *config.
Status LoadServerConfig(const std::string& path, ServerConfig* config);

// "host:port", "[v6]:port" into host and port (0..65535).
Status ParseListen(std::string_view listen, std::string* host, int* port);

// True for "localhost", 127.0.0.0/8 and ::1 (with or without brackets).
bool IsLoopbackHost(std::string_view host);

// Where the token comes from, in order: config "token", config
// "token_file" (first line, surrounding white space dropped), the
// environment variable config.token_env (env_value: its value, or null when
// unset). *token is "" when none is configured. Errors: both "token" and
// "token_file" set, the token file unreadable or empty.
Status ResolveToken(const ServerConfig& config, const char* env_value, std::string* token);

// Refuses settings the daemon must not start with: a non-loopback address
// without a token, a token shorter than kMinTokenLength, limits out of range.
Status ValidateServerConfig(const ServerConfig& config, const std::string& token);

}  // namespace causegate::server
