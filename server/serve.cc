// Signals are handled by one thread in sigwait(), not in handlers: the
// signals are blocked before any other thread starts, so they are only ever
// delivered there, and reloading or stopping runs as ordinary code instead
// of in a signal context. SIGPIPE is ignored: a client that hangs up
// mid-answer must not end the daemon.
#include "server/serve.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#include "gate/daemon_caches.h"
#include "gate/hook_input.h"
#include "gate/state_dir.h"
#include "server/audit_log.h"
#include "server/http_server.h"
#include "server/metrics.h"
#include "server/path_roots.h"
#include "server/rule_store.h"
#include "server/service.h"

namespace causegate::server {
namespace {

const char* Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// Descriptors the daemon needs besides its connections: the listening
// socket, epoll, the audit log, packs being read, transcripts being read by
// every worker.
constexpr rlim_t kFilesBesideConnections = 256;

// The usual soft limit (1024) is below max_connections' default: raise it
// towards the hard limit, so connections are capped by max_connections
// (oldest idle closed first) and not by accept failing with EMFILE.
void RaiseOpenFileLimit(rlim_t wanted) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= wanted) return;
  limit.rlim_cur = std::min(wanted, limit.rlim_max);
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  if (limit.rlim_cur < wanted) {
    spdlog::warn("open file limit {} is below max_connections + {}; raise it (ulimit -n) or lower max_connections",
                 limit.rlim_cur, kFilesBesideConnections);
  }
}

// The CLI's logger is single-threaded; the daemon logs from every worker.
void UseThreadSafeLogger() {
  auto logger = spdlog::get("causegate-serve");
  if (!logger) {
    logger = spdlog::stderr_logger_mt("causegate-serve");
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e causegate: %l: %v");
  }
  logger->set_level(spdlog::default_logger()->level());
  spdlog::set_default_logger(logger);
}

Status WritePortFile(const std::string& path, const std::string& host, int port) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return Status::Error("port file: " + tmp + ": cannot write");
    out << (host.find(':') != std::string::npos ? "[" + host + "]" : host) << ":" << port << "\n";
    if (!out) return Status::Error("port file: " + tmp + ": cannot write");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status::Error("port file: " + path + ": " + ec.message());
  return Status::Ok();
}

// Polls the pack folder's signature and reloads when it changes.
class PackWatcher {
 public:
  PackWatcher(std::string dir, int poll_ms, Service* service) : dir_(std::move(dir)), poll_ms_(poll_ms), service_(service) {
    thread_ = std::thread([this] { Loop(); });
  }
  ~PackWatcher() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  void Loop() {
    std::string last = PackFolderSignature(dir_);
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(poll_ms_), [this] { return stop_; })) {
      lock.unlock();
      const std::string now = PackFolderSignature(dir_);
      if (now != last) {
        last = now;
        (void)service_->Reload("pack change");
      }
      lock.lock();
    }
  }

  const std::string dir_;
  const int poll_ms_;
  Service* const service_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

// sigwait() loop: SIGHUP reloads, SIGTERM/SIGINT stop the server (a second
// one exits at once), SIGUSR1 (sent by the daemon itself) ends the loop.
class SignalThread {
 public:
  SignalThread(const sigset_t& set, Service* service, HttpServer* http) {
    thread_ = std::thread([set, service, http] {
      bool stopping = false;
      while (true) {
        int sig = 0;
        if (sigwait(&set, &sig) != 0) continue;
        if (sig == SIGHUP) {
          (void)service->Reload("SIGHUP");
        } else if ((sig == SIGTERM || sig == SIGINT) && !stopping) {
          stopping = true;
          spdlog::info("{}: finishing the requests in flight, then stopping (again to stop at once)",
                       sig == SIGTERM ? "SIGTERM" : "SIGINT");
          http->Stop();
        } else if (sig == SIGTERM || sig == SIGINT) {
          spdlog::warn("stopping at once; requests in flight are dropped");
          std::_Exit(1);
        } else {
          return;
        }
      }
    });
  }
  ~SignalThread() {
    pthread_kill(thread_.native_handle(), SIGUSR1);
    thread_.join();
  }

 private:
  std::thread thread_;
};

// The folder of the per-session state: the configured one made absolute
// and created now, so that a folder the daemon cannot use stops the start;
// else the hook's default, which a missing HOME leaves unset (the counters
// and session logs are then not kept, as for the hook).
Status ResolveStateDir(const ServerConfig& config, std::string* out) {
  if (config.state_dir.empty()) {
    *out = gate::StateDir();
    if (out->empty()) spdlog::warn("no state folder (XDG_STATE_HOME and HOME unset): loop counters are not kept");
    return Status::Ok();
  }
  std::error_code ec;
  *out = std::filesystem::absolute(config.state_dir, ec).lexically_normal().string();
  if (ec) return Status::Error("state_dir: " + config.state_dir + ": " + ec.message());
  while (out->size() > 1 && out->back() == '/') out->pop_back();
  if (Status s = gate::EnsureDir(*out); !s.ok()) return s.Within("state_dir");
  if (access(out->c_str(), W_OK | X_OK) != 0) return Status::Error("state_dir: " + *out + ": not writable");
  return Status::Ok();
}

}  // namespace

Status Serve(const ServerConfig& config) {
  std::string token;
  const char* env_token = config.token_env.empty() ? nullptr : std::getenv(config.token_env.c_str());
  if (Status s = ResolveToken(config, env_token, &token); !s.ok()) return s;
  if (Status s = ValidateServerConfig(config, token); !s.ok()) return s;
  gate::Agent agent = gate::Agent::kAuto;
  if (!gate::ParseAgentName(config.agent, &agent)) return Status::Error("agent: unknown \"" + config.agent + "\"");
  std::string state_dir;
  if (Status s = ResolveStateDir(config, &state_dir); !s.ok()) return s;

  // A daemon judges the same sessions' tool output at stop after stop.
  gate::EnableDaemonCaches();

  // Before any thread exists, so that every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  for (int sig : {SIGHUP, SIGTERM, SIGINT, SIGUSR1}) sigaddset(&signals, sig);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  UseThreadSafeLogger();

  RuleStore store(config.rules_dir);
  if (Status s = store.Reload(); !s.ok()) return s.Within("rule packs");
  std::unique_ptr<AuditLog> audit;
  if (!config.audit_log.empty()) {
    const IncludeText text = config.log_text ? IncludeText::kYes : IncludeText::kNo;
    if (Status s = AuditLog::Open(config.audit_log, config.audit_log_max_bytes, config.audit_log_files, text, &audit);
        !s.ok()) {
      return s;
    }
  }
  const PathRoots roots(config.roots.empty() ? PathRoots::Defaults(Env("CLAUDE_CONFIG_DIR")) : config.roots,
                        Env("HOME"));
  Metrics metrics;
  ServiceOptions service_options;
  service_options.agent = agent;
  service_options.gate.loop.max_blocks = config.max_blocks;
  service_options.gate.state_dir = state_dir;
  Service service(service_options, &store, roots, &metrics, audit.get());

  HttpOptions http_options;
  http_options.host = config.host;
  http_options.port = config.port;
  http_options.threads = config.threads;
  http_options.max_queued_connections = config.max_queued_connections;
  http_options.max_connections = config.max_connections;
  http_options.max_body_bytes = config.max_body_bytes;
  http_options.max_header_bytes = config.max_header_bytes;
  http_options.read_timeout_ms = config.read_timeout_ms;
  http_options.write_timeout_ms = config.write_timeout_ms;
  http_options.keep_alive_timeout_s = config.keep_alive_timeout_s;
  http_options.keep_alive_max_requests = config.keep_alive_max_requests;
  http_options.token = token;
  RaiseOpenFileLimit(static_cast<rlim_t>(config.max_connections) + kFilesBesideConnections);
  HttpServer http(&service, &metrics, http_options);
  int port = 0;
  if (Status s = http.Bind(&port); !s.ok()) return s;
  if (!config.port_file.empty()) {
    if (Status s = WritePortFile(config.port_file, config.host, port); !s.ok()) return s;
  }
  const auto rules = store.Current();
  spdlog::info("serving on http://{}:{} ({} rules in {} packs, {} worker threads, {})",
               config.host.find(':') != std::string::npos ? "[" + config.host + "]" : config.host, port,
               rules->rules().size(), rules->packs().size(), config.threads,
               token.empty() ? "no token" : "bearer token required");
  for (const auto& root : roots.roots()) spdlog::debug("transcript root: {}", root.string());
  if (!state_dir.empty()) spdlog::info("session state in {}", state_dir);

  Status result;
  {
    SignalThread signal_thread(signals, &service, &http);
    std::unique_ptr<PackWatcher> watcher;
    if (!config.rules_dir.empty() && config.reload_poll_ms > 0) {
      watcher = std::make_unique<PackWatcher>(config.rules_dir, config.reload_poll_ms, &service);
    }
    result = http.Run();
  }
  if (audit) audit->Flush();
  if (!config.port_file.empty()) {
    std::error_code ec;
    std::filesystem::remove(config.port_file, ec);
  }
  spdlog::info("stopped");
  return result;
}

}  // namespace causegate::server
