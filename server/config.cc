// Reading the daemon's config file. Strict like the pack parser: an unknown
// key or a value of the wrong type is an error naming the key, because a
// misspelt "roots" or "token_file" that is silently ignored would open the
// daemon wider than its owner meant.
// Tests: tests/unit/server/config_test.cc.
#include "server/config.h"

#include <arpa/inet.h>

#include <charconv>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "evidence/json_bounds.h"

namespace causegate::server {
namespace {

using nlohmann::json;

Status ReadSmallFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxConfigFileBytes) {
    return Status::Error(path + ": larger than " + std::to_string(kMaxConfigFileBytes) + " bytes");
  }
  *out = text.str();
  return Status::Ok();
}

Status String(const json& v, std::string* out) {
  if (!v.is_string()) return Status::Error("must be a string");
  *out = v.get<std::string>();
  return Status::Ok();
}

Status Bool(const json& v, bool* out) {
  if (!v.is_boolean()) return Status::Error("must be true or false");
  *out = v.get<bool>();
  return Status::Ok();
}

template <typename T>
Status Number(const json& v, long long min, long long max, T* out) {
  if (!v.is_number_integer()) return Status::Error("must be an integer");
  const long long n = v.get<long long>();
  if (n < min || n > max) {
    return Status::Error("must be between " + std::to_string(min) + " and " + std::to_string(max));
  }
  *out = static_cast<T>(n);
  return Status::Ok();
}

using Setter = std::function<Status(const json&, ServerConfig*)>;

const std::map<std::string, Setter>& Setters() {
  static const std::map<std::string, Setter> kSetters = {
      {"listen", [](const json& v, ServerConfig* c) {
         std::string listen;
         if (Status s = String(v, &listen); !s.ok()) return s;
         return ParseListen(listen, &c->host, &c->port);
       }},
      {"rules", [](const json& v, ServerConfig* c) { return String(v, &c->rules_dir); }},
      {"audit_log", [](const json& v, ServerConfig* c) { return String(v, &c->audit_log); }},
      {"audit_log_max_bytes",
       [](const json& v, ServerConfig* c) { return Number(v, 4096, 1ll << 40, &c->audit_log_max_bytes); }},
      {"audit_log_files", [](const json& v, ServerConfig* c) { return Number(v, 1, 1000, &c->audit_log_files); }},
      {"log_text", [](const json& v, ServerConfig* c) { return Bool(v, &c->log_text); }},
      {"token", [](const json& v, ServerConfig* c) { return String(v, &c->token); }},
      {"token_file", [](const json& v, ServerConfig* c) { return String(v, &c->token_file); }},
      {"token_env", [](const json& v, ServerConfig* c) { return String(v, &c->token_env); }},
      {"roots", [](const json& v, ServerConfig* c) {
         if (!v.is_array()) return Status::Error("must be an array of folder names");
         std::vector<std::string> roots;
         for (const json& item : v) {
           if (!item.is_string() || item.get<std::string>().empty()) {
             return Status::Error("must be an array of folder names");
           }
           roots.push_back(item.get<std::string>());
         }
         c->roots = std::move(roots);
         return Status::Ok();
       }},
      {"threads", [](const json& v, ServerConfig* c) { return Number(v, 1, 1024, &c->threads); }},
      {"max_queued_connections",
       [](const json& v, ServerConfig* c) { return Number(v, 1, 100000, &c->max_queued_connections); }},
      {"max_connections",
       [](const json& v, ServerConfig* c) { return Number(v, 16, 100000, &c->max_connections); }},
      {"max_body_bytes",
       [](const json& v, ServerConfig* c) { return Number(v, 1024, 1ll << 30, &c->max_body_bytes); }},
      {"max_header_bytes",
       [](const json& v, ServerConfig* c) { return Number(v, 1024, 1 << 20, &c->max_header_bytes); }},
      {"read_timeout_ms", [](const json& v, ServerConfig* c) { return Number(v, 1, 600000, &c->read_timeout_ms); }},
      {"write_timeout_ms",
       [](const json& v, ServerConfig* c) { return Number(v, 1, 600000, &c->write_timeout_ms); }},
      {"keep_alive_timeout_s",
       [](const json& v, ServerConfig* c) { return Number(v, 1, 3600, &c->keep_alive_timeout_s); }},
      {"keep_alive_max_requests",
       [](const json& v, ServerConfig* c) { return Number(v, 1, 1 << 30, &c->keep_alive_max_requests); }},
      {"reload_poll_ms", [](const json& v, ServerConfig* c) { return Number(v, 0, 3600000, &c->reload_poll_ms); }},
      {"port_file", [](const json& v, ServerConfig* c) { return String(v, &c->port_file); }},
      {"max_blocks", [](const json& v, ServerConfig* c) { return Number(v, 0, 100, &c->max_blocks); }},
      {"agent", [](const json& v, ServerConfig* c) { return String(v, &c->agent); }},
      {"state_dir", [](const json& v, ServerConfig* c) {
         if (Status s = String(v, &c->state_dir); !s.ok()) return s;
         return c->state_dir.empty() ? Status::Error("must name a folder") : Status::Ok();
       }},
  };
  return kSetters;
}

std::string Trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  const auto end = s.find_last_not_of(" \t\r\n");
  return s.substr(begin, end - begin + 1);
}

}  // namespace

Status ParseServerConfig(std::string_view json_text, const std::string& file, ServerConfig* config) {
  if (!evidence::JsonDepthWithin(json_text, limits::kMaxJsonDepth)) {
    return Status::Error(file + ": JSON nested too deep");
  }
  const json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::Error(file + ": not valid JSON");
  if (!doc.is_object()) return Status::Error(file + ": must be a JSON object");
  ServerConfig parsed = *config;
  for (const auto& [key, value] : doc.items()) {
    auto it = Setters().find(key);
    if (it == Setters().end()) return Status::Error(file + ": unknown key \"" + key + "\"");
    if (Status s = it->second(value, &parsed); !s.ok()) return s.Within(file + ": \"" + key + "\"");
  }
  *config = std::move(parsed);
  return Status::Ok();
}

Status LoadServerConfig(const std::string& path, ServerConfig* config) {
  std::string text;
  if (Status s = ReadSmallFile(path, &text); !s.ok()) return s;
  return ParseServerConfig(text, path, config);
}

Status ParseListen(std::string_view listen, std::string* host, int* port) {
  const auto colon = listen.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return Status::Error("listen: \"" + std::string(listen) + "\" is not HOST:PORT");
  }
  std::string_view h = listen.substr(0, colon);
  const std::string_view p = listen.substr(colon + 1);
  if (h.front() == '[') {
    if (h.size() < 3 || h.back() != ']') return Status::Error("listen: bad IPv6 address in \"" + std::string(listen) + "\"");
    h = h.substr(1, h.size() - 2);
  } else if (h.find(':') != std::string_view::npos) {
    return Status::Error("listen: write an IPv6 address in brackets: [::1]:8787");
  }
  int n = -1;
  const auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), n);
  if (p.empty() || ec != std::errc() || end != p.data() + p.size() || n < 0 || n > 65535) {
    return Status::Error("listen: bad port in \"" + std::string(listen) + "\"");
  }
  *host = std::string(h);
  *port = n;
  return Status::Ok();
}

bool IsLoopbackHost(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host == "localhost") return true;
  const std::string h(host);
  in_addr v4{};
  if (inet_pton(AF_INET, h.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, h.c_str(), &v6) == 1) {
    static const in6_addr kLoopback = IN6ADDR_LOOPBACK_INIT;
    for (std::size_t i = 0; i < sizeof v6.s6_addr; ++i) {
      if (v6.s6_addr[i] != kLoopback.s6_addr[i]) return false;
    }
    return true;
  }
  return false;
}

Status ResolveToken(const ServerConfig& config, const char* env_value, std::string* token) {
  token->clear();
  if (!config.token.empty() && !config.token_file.empty()) {
    return Status::Error("config: set \"token\" or \"token_file\", not both");
  }
  if (!config.token.empty()) {
    *token = config.token;
  } else if (!config.token_file.empty()) {
    std::string text;
    if (Status s = ReadSmallFile(config.token_file, &text); !s.ok()) return s.Within("token_file");
    *token = Trim(text.substr(0, text.find('\n')));
    if (token->empty()) return Status::Error("token_file: " + config.token_file + ": empty");
  } else if (env_value != nullptr) {
    *token = Trim(env_value);
  }
  return Status::Ok();
}

Status ValidateServerConfig(const ServerConfig& config, const std::string& token) {
  if (!token.empty() && token.size() < static_cast<std::size_t>(kMinTokenLength)) {
    return Status::Error("token: shorter than " + std::to_string(kMinTokenLength) + " characters");
  }
  if (!IsLoopbackHost(config.host) && token.empty()) {
    return Status::Error("listen: " + config.host +
                         " is not a loopback address; set a bearer token first (config \"token_file\" or $" +
                         config.token_env + ")");
  }
  if (config.port < 0 || config.port > 65535) return Status::Error("listen: port out of range");
  if (config.threads < 1) return Status::Error("threads: must be at least 1");
  if (config.max_queued_connections < 1) return Status::Error("max_queued_connections: must be at least 1");
  if (config.max_connections < 16) return Status::Error("max_connections: must be at least 16");
  for (const std::string& root : config.roots) {
    if (root.empty()) return Status::Error("roots: an empty folder name");
  }
  return Status::Ok();
}

}  // namespace causegate::server
