#include "server/config.h"

#include <catch2/catch.hpp>

#include "unit/evidence/test_util.h"

namespace causegate::server {
namespace {

using evidence::testing::TempDir;

TEST_CASE("config file: every key is read and checked", "[server][config]") {
  ServerConfig c;
  const Status s = ParseServerConfig(R"({
    "listen": "[::1]:9000", "rules": "/etc/causegate/packs", "audit_log": "/var/log/cg.jsonl",
    "audit_log_max_bytes": 1048576, "audit_log_files": 3, "log_text": true,
    "token_file": "/etc/causegate/token", "token_env": "CG_TOKEN",
    "roots": ["/srv/sessions", "~/.claude/projects"], "threads": 4, "max_queued_connections": 8,
    "max_body_bytes": 65536, "max_header_bytes": 4096, "read_timeout_ms": 1500,
    "write_timeout_ms": 2500, "keep_alive_timeout_s": 2, "keep_alive_max_requests": 50,
    "reload_poll_ms": 0, "port_file": "/run/cg.port", "max_blocks": 3, "agent": "claude-code",
    "state_dir": "/srv/causegate/state"
  })", "c.json", &c);
  REQUIRE(s.ok());
  CHECK(c.host == "::1");
  CHECK(c.port == 9000);
  CHECK(c.rules_dir == "/etc/causegate/packs");
  CHECK(c.audit_log == "/var/log/cg.jsonl");
  CHECK(c.audit_log_max_bytes == 1048576);
  CHECK(c.audit_log_files == 3);
  CHECK(c.log_text);
  CHECK(c.token_file == "/etc/causegate/token");
  CHECK(c.token_env == "CG_TOKEN");
  CHECK(c.roots == std::vector<std::string>{"/srv/sessions", "~/.claude/projects"});
  CHECK(c.threads == 4);
  CHECK(c.max_queued_connections == 8);
  CHECK(c.max_body_bytes == 65536);
  CHECK(c.max_header_bytes == 4096);
  CHECK(c.read_timeout_ms == 1500);
  CHECK(c.write_timeout_ms == 2500);
  CHECK(c.keep_alive_timeout_s == 2);
  CHECK(c.keep_alive_max_requests == 50);
  CHECK(c.reload_poll_ms == 0);
  CHECK(c.port_file == "/run/cg.port");
  CHECK(c.max_blocks == 3);
  CHECK(c.agent == "claude-code");
  CHECK(c.state_dir == "/srv/causegate/state");
}

TEST_CASE("config file: absent keys keep their value", "[server][config]") {
  ServerConfig c;
  c.threads = 7;
  REQUIRE(ParseServerConfig(R"({"listen": "127.0.0.1:0"})", "c.json", &c).ok());
  CHECK(c.threads == 7);
  CHECK(c.port == 0);
  CHECK(c.token_env == "CAUSEGATE_TOKEN");
}

TEST_CASE("config file: errors name the key and leave the config alone", "[server][config]") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"[]", "c.json: must be a JSON object"},
      {"{", "c.json: not valid JSON"},
      {R"({"thread": 4})", "c.json: unknown key \"thread\""},
      {R"({"threads": "4"})", "c.json: \"threads\": must be an integer"},
      {R"({"threads": 0})", "c.json: \"threads\": must be between 1 and 1024"},
      {R"({"log_text": 1})", "c.json: \"log_text\": must be true or false"},
      {R"({"roots": "/srv"})", "c.json: \"roots\": must be an array of folder names"},
      {R"({"roots": [""]})", "c.json: \"roots\": must be an array of folder names"},
      {R"({"listen": "8787"})", "c.json: \"listen\": listen: \"8787\" is not HOST:PORT"},
      {R"({"max_body_bytes": 10})", "c.json: \"max_body_bytes\": must be between 1024 and 1073741824"},
      {R"({"state_dir": ""})", "c.json: \"state_dir\": must name a folder"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    ServerConfig config;
    config.threads = 3;
    const Status s = ParseServerConfig(c.text, "c.json", &config);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message() == c.message);
    CHECK(config.threads == 3);
  }
}

TEST_CASE("listen addresses", "[server][config]") {
  struct Case {
    const char* listen;
    bool ok;
    const char* host;
    int port;
  };
  const Case cases[] = {
      {"127.0.0.1:8787", true, "127.0.0.1", 8787}, {"localhost:0", true, "localhost", 0},
      {"[::1]:80", true, "::1", 80},               {"0.0.0.0:65535", true, "0.0.0.0", 65535},
      {"::1:80", false, "", 0},                    {"127.0.0.1:", false, "", 0},
      {":8787", false, "", 0},                     {"127.0.0.1:65536", false, "", 0},
      {"127.0.0.1:-1", false, "", 0},              {"127.0.0.1:80x", false, "", 0},
      {"[]:80", false, "", 0},
  };
  for (const Case& c : cases) {
    INFO(c.listen);
    std::string host;
    int port = -1;
    const Status s = ParseListen(c.listen, &host, &port);
    CHECK(s.ok() == c.ok);
    if (c.ok) {
      CHECK(host == c.host);
      CHECK(port == c.port);
    }
  }
}

TEST_CASE("loopback hosts", "[server][config]") {
  const std::pair<const char*, bool> cases[] = {
      {"127.0.0.1", true}, {"127.1.2.3", true},  {"localhost", true}, {"::1", true},
      {"[::1]", true},     {"0.0.0.0", false},  {"::", false},       {"10.0.0.1", false},
      {"128.0.0.1", false}, {"example.com", false}, {"", false},     {"::ffff:127.0.0.1", false},
  };
  for (const auto& [host, loopback] : cases) {
    INFO(host);
    CHECK(IsLoopbackHost(host) == loopback);
  }
}

TEST_CASE("token: config, token file, environment", "[server][config]") {
  TempDir dir;
  ServerConfig c;
  std::string token;

  REQUIRE(ResolveToken(c, nullptr, &token).ok());
  CHECK(token.empty());
  REQUIRE(ResolveToken(c, "  from-the-environment-123\n", &token).ok());
  CHECK(token == "from-the-environment-123");

  c.token_file = dir.WriteRaw("token", "from-a-file-0123456789\nsecond line\n");
  REQUIRE(ResolveToken(c, "ignored-when-a-file-is-set", &token).ok());
  CHECK(token == "from-a-file-0123456789");

  c.token = "inline";
  CHECK_FALSE(ResolveToken(c, nullptr, &token).ok());  // both set
  c.token_file.clear();
  REQUIRE(ResolveToken(c, nullptr, &token).ok());
  CHECK(token == "inline");

  c.token.clear();
  c.token_file = dir.WriteRaw("empty", "\n");
  CHECK_FALSE(ResolveToken(c, nullptr, &token).ok());
  c.token_file = dir.File("missing");
  CHECK_FALSE(ResolveToken(c, nullptr, &token).ok());
}

TEST_CASE("validation: no public address without a token", "[server][config]") {
  ServerConfig c;
  CHECK(ValidateServerConfig(c, "").ok());
  c.host = "0.0.0.0";
  const Status refused = ValidateServerConfig(c, "");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.message().find("not a loopback address") != std::string::npos);
  CHECK(ValidateServerConfig(c, "0123456789abcdef").ok());
  CHECK_FALSE(ValidateServerConfig(c, "short").ok());
  c.host = "127.0.0.1";
  c.threads = 0;
  CHECK_FALSE(ValidateServerConfig(c, "").ok());
}

TEST_CASE("config file on disk", "[server][config]") {
  TempDir dir;
  ServerConfig c;
  REQUIRE(LoadServerConfig(dir.WriteRaw("c.json", R"({"threads": 2})"), &c).ok());
  CHECK(c.threads == 2);
  CHECK_FALSE(LoadServerConfig(dir.File("none.json"), &c).ok());
}

}  // namespace
}  // namespace causegate::server
