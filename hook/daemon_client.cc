// The hook's side of the daemon protocol, on cpp-httplib's client (its
// header stays in this file). The timeout is short on purpose: the agent is
// waiting, and judging locally costs a few milliseconds, so a daemon that
// does not answer at once is skipped rather than waited for.
#include "hook/daemon_client.h"

#include <httplib.h>

namespace causegate::hook {
namespace {

// "scheme://host[:port][/prefix]" -> "scheme://host[:port]" and "/prefix".
Status SplitUrl(const std::string& url, std::string* origin, std::string* prefix) {
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return Status::Error("daemon URL \"" + url + "\": write it as http://HOST:PORT");
  const std::string scheme = url.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https") {
    return Status::Error("daemon URL \"" + url + "\": scheme must be http or https");
  }
  const auto path_start = url.find('/', scheme_end + 3);
  *origin = url.substr(0, path_start);
  *prefix = path_start == std::string::npos ? "" : url.substr(path_start);
  while (!prefix->empty() && prefix->back() == '/') prefix->pop_back();
  if (origin->size() <= scheme_end + 3) return Status::Error("daemon URL \"" + url + "\": no host");
  return Status::Ok();
}

}  // namespace

Status AskDaemon(const DaemonOptions& options, std::string_view input, std::string* answer) {
  std::string origin;
  std::string prefix;
  if (Status s = SplitUrl(options.url, &origin, &prefix); !s.ok()) return s;
  try {
    httplib::Client client(origin);
    if (!client.is_valid()) return Status::Error("daemon URL \"" + options.url + "\": not usable");
    const time_t sec = options.timeout_ms / 1000;
    const time_t usec = (options.timeout_ms % 1000) * 1000;
    client.set_connection_timeout(sec, usec);
    client.set_read_timeout(sec, usec);
    client.set_write_timeout(sec, usec);
    client.set_keep_alive(false);
    httplib::Headers headers;
    if (!options.token.empty()) headers.emplace("Authorization", "Bearer " + options.token);
    const httplib::Result res =
        client.Post((prefix + "/hook").c_str(), headers, input.data(), input.size(), "application/json");
    if (!res) return Status::Error("daemon at " + options.url + ": " + httplib::to_string(res.error()));
    if (res->status != 200) return Status::Error("daemon at " + options.url + ": HTTP " + std::to_string(res->status));
    if (res->has_header("Causegate-Fail-Open")) {
      return Status::Error("daemon at " + options.url + " did not judge: " + res->get_header_value("Causegate-Fail-Open"));
    }
    *answer = res->body;
    return Status::Ok();
  } catch (const std::exception& e) {
    return Status::Error("daemon at " + options.url + ": " + e.what());
  }
}

}  // namespace causegate::hook
