// cpp-httplib glue. httplib serves each connection on one task of the
// queue it gets from new_task_queue for as long as the connection is kept
// alive; BoundedPool is that queue with workers started on demand up to a
// cap and a cap on waiting connections, where httplib's own ThreadPool has
// a fixed number of workers (one idle connection per worker starves it)
// and queues without bound. Only the header limit is checked before httplib reads the body;
// the token, route and method are checked once the body (at most
// max_body_bytes) is in, because closing a connection with unread bytes
// makes the kernel reset it and the client would never see its 401.
//
// Stop: httplib's stop() closes the listening socket; the accept loop ends,
// the pool finishes the requests being served, and each kept-alive
// connection closes after its current request (or when its idle timeout
// runs out).
// Tests: tests/e2e/serve_test.py (auth, limits, routes, drain).
#include "server/http_server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "server/bearer.h"
#include "server/config.h"

namespace causegate::server {
namespace {

using httplib::Request;
using httplib::Response;
using HandlerResponse = httplib::Server::HandlerResponse;

class BoundedPool final : public httplib::TaskQueue {
 public:
  BoundedPool(int threads, int max_queued, const std::atomic<bool>* stopping)
      : max_queued_(static_cast<std::size_t>(max_queued)),
        max_workers_(static_cast<std::size_t>(threads) + static_cast<std::size_t>(max_queued)),
        stopping_(stopping) {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { Work(); });
  }

  // Called by the accept loop with one accepted connection.
  void enqueue(std::function<void()> fn) override {
    std::unique_lock<std::mutex> lock(mu_);
    // Back-pressure: while the queue is full, stop accepting.
    while (jobs_.size() >= max_queued_ && !stopping_->load()) {
      not_full_.wait_for(lock, std::chrono::milliseconds(50));
    }
    if (jobs_.size() >= max_queued_) {
      // Stopping: the listening socket is closed, so fn closes the
      // connection without reading it.
      lock.unlock();
      fn();
      return;
    }
    jobs_.push_back(std::move(fn));
    // No worker free for it: start one (they stay, up to max_workers_), so
    // a connection never waits behind clients that hold theirs idle.
    if (jobs_.size() > idle_ && workers_.size() < max_workers_) {
      workers_.emplace_back([this] { Work(); });
    } else {
      not_empty_.notify_one();
    }
  }

  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      shutdown_ = true;
    }
    not_empty_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

 private:
  void Work() {
    while (true) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mu_);
        ++idle_;
        not_empty_.wait(lock, [this] { return shutdown_ || !jobs_.empty(); });
        --idle_;
        if (jobs_.empty()) return;  // shut down and drained
        fn = std::move(jobs_.front());
        jobs_.pop_front();
      }
      not_full_.notify_one();
      fn();
    }
  }

  const std::size_t max_queued_;
  const std::size_t max_workers_;
  const std::atomic<bool>* stopping_;
  std::size_t idle_ = 0;  // workers waiting for a job (guarded by mu_)
  std::mutex mu_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::deque<std::function<void()>> jobs_;
  bool shutdown_ = false;
  std::vector<std::thread> workers_;
};

struct Route {
  const char* path;
  const char* method;
  bool needs_token;
};

constexpr Route kRoutes[] = {
    {"/hook", "POST", true},      {"/v1/judge", "POST", true}, {"/v1/reload", "POST", true},
    {"/metrics", "GET", true},    {"/healthz", "GET", false},
};

const Route* FindRoute(const std::string& path) {
  for (const Route& r : kRoutes) {
    if (path == r.path) return &r;
  }
  return nullptr;
}

// The route label of a request in the metrics: a fixed set, so a scan of
// random paths cannot grow the series.
const char* RouteLabel(const std::string& path) {
  const Route* r = FindRoute(path);
  return r ? r->path : "other";
}

const char* StatusText(int status) {
  switch (status) {
    case 400: return "bad request";
    case 401: return "missing or wrong bearer token";
    case 404: return "no such route";
    case 405: return "method not allowed";
    case 408: return "request timeout";
    case 413: return "request body too large";
    case 414: return "request URI too long";
    case 431: return "request headers too large";
    case 503: return "unavailable";
    default: return status >= 500 ? "internal error" : "bad request";
  }
}

// Header values may not carry CR or LF; other control bytes are blanked too.
std::string HeaderSafe(const std::string& text) {
  std::string out = text.substr(0, 512);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return out;
}

void Send(const Reply& reply, Response* res) {
  res->status = reply.status;
  res->set_content(reply.body, reply.content_type.c_str());
  if (!reply.fail_open_reason.empty()) res->set_header("Causegate-Fail-Open", HeaderSafe(reply.fail_open_reason));
  if (reply.judge_ms >= 0) {
    char timing[64];
    std::snprintf(timing, sizeof timing, "judge;dur=%.3f", reply.judge_ms);
    res->set_header("Server-Timing", timing);
  }
}

// SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which would let a
// second daemon bind the same port and take half the requests.
void ListenSocketOptions(socket_t sock) {
  int yes = 1;
  setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
}

}  // namespace

struct HttpServer::Impl {
  Impl(Service* s, Metrics* m, HttpOptions o) : service(s), metrics(m), options(std::move(o)) {}

  // Only what can be judged before the body is read. Everything else is
  // answered after httplib has read the body (at most max_body_bytes), so
  // the connection stays usable and the client sees the answer, not a reset.
  HandlerResponse PreRoute(const Request& req, Response& res) const {
    std::size_t header_bytes = 0;
    for (const auto& [key, value] : req.headers) header_bytes += key.size() + value.size() + 4;
    if (req.headers.size() <= kMaxHeaderCount && header_bytes <= options.max_header_bytes) {
      return HandlerResponse::Unhandled;
    }
    Send(Service::Error(431, StatusText(431)), &res);
    res.set_header("Connection", "close");
    return HandlerResponse::Handled;
  }

  void SetUp() {
    svr.new_task_queue = [this] {
      return new BoundedPool(options.threads, options.max_queued_connections, &stopping);
    };
    svr.set_socket_options(ListenSocketOptions);
    svr.set_tcp_nodelay(true);
    svr.set_keep_alive_max_count(static_cast<std::size_t>(options.keep_alive_max_requests));
    svr.set_keep_alive_timeout(options.keep_alive_timeout_s);
    svr.set_read_timeout(options.read_timeout_ms / 1000, (options.read_timeout_ms % 1000) * 1000);
    svr.set_write_timeout(options.write_timeout_ms / 1000, (options.write_timeout_ms % 1000) * 1000);
    svr.set_payload_max_length(options.max_body_bytes);
    svr.set_pre_routing_handler([this](const Request& req, Response& res) { return PreRoute(req, res); });
    svr.set_error_handler([](const Request& req, Response& res) {
      if (!res.body.empty()) return;
      const Route* route = FindRoute(req.path);
      if (res.status == 404 && route != nullptr) {
        res.status = 405;
        res.set_header("Allow", route->method);
        Send(Service::Error(405, std::string("use ") + route->method + " " + route->path), &res);
        return;
      }
      Send(Service::Error(res.status, StatusText(res.status)), &res);
    });
    svr.set_exception_handler([](const Request& req, Response& res, std::exception_ptr ep) {
      std::string what = "unknown exception";
      try {
        std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      spdlog::error("{} {}: internal error: {}", req.method, req.path, what);
      Send(Service::Error(500, "internal error"), &res);
    });
    svr.set_logger([this](const Request& req, const Response& res) {
      metrics->CountRequest(RouteLabel(req.path), res.status);
    });

    Serve("/hook", [this](const Request& req) { return Hook(req.body); });
    Serve("/v1/judge", [this](const Request& req) { return service->Judge(req.body); });
    Serve("/v1/reload", [this](const Request&) { return service->Reload("POST /v1/reload"); });
    Serve("/healthz", [this](const Request&) { return service->Health(); });
    Serve("/metrics", [this](const Request&) { return service->MetricsText(); });
  }

  // Registers a route of kRoutes with its method, behind the token check.
  void Serve(const char* path, std::function<Reply(const Request&)> answer) {
    const Route& route = *FindRoute(path);
    httplib::Server::Handler handler = [this, &route, answer = std::move(answer)](const Request& req,
                                                                                 Response& res) {
      if (route.needs_token && !options.token.empty() &&
          !BearerMatches(req.get_header_value("Authorization"), options.token)) {
        // Logged and counted: an agent whose hook is refused is unchecked,
        // and its user believes otherwise (a Claude Code http hook without
        // allowedEnvVars sends no token).
        spdlog::warn("{} {}: refused (401): {}", req.method, req.path, StatusText(401));
        metrics->CountRefused(route.path, Refusal::kToken);
        Send(Service::Error(401, StatusText(401)), &res);
        res.set_header("WWW-Authenticate", "Bearer");
        return;
      }
      Send(answer(req), &res);
    };
    if (std::string_view(route.method) == "POST") {
      svr.Post(path, std::move(handler));
    } else {
      svr.Get(path, std::move(handler));
    }
  }

  // Whatever goes wrong, a hook request is answered 200 and allows.
  Reply Hook(const std::string& body) {
    try {
      return service->Hook(body);
    } catch (const std::exception& e) {
      spdlog::error("POST /hook: allowed without judging (fail-open): internal error: {}", e.what());
      Reply reply;
      reply.fail_open_reason = std::string("internal error: ") + e.what();
      return reply;
    }
  }

  Service* service;
  Metrics* metrics;
  const HttpOptions options;
  httplib::Server svr;
  std::atomic<bool> stopping{false};
  std::atomic<bool> in_run{false};
};

HttpServer::HttpServer(Service* service, Metrics* metrics, HttpOptions options)
    : impl_(std::make_unique<Impl>(service, metrics, std::move(options))) {
  impl_->SetUp();
}

HttpServer::~HttpServer() { Stop(); }

Status HttpServer::Bind(int* port) {
  const HttpOptions& o = impl_->options;
  if (o.port == 0) {
    const int bound = impl_->svr.bind_to_any_port(o.host);
    if (bound <= 0) return Status::Error("listen: cannot bind " + o.host + " (any port)");
    *port = bound;
  } else {
    if (!impl_->svr.bind_to_port(o.host, o.port)) {
      return Status::Error("listen: cannot bind " + o.host + ":" + std::to_string(o.port) +
                           " (in use, or not an address of this machine)");
    }
    *port = o.port;
  }
  return Status::Ok();
}

Status HttpServer::Run() {
  impl_->in_run = true;
  if (impl_->stopping) {
    impl_->in_run = false;
    return Status::Ok();
  }
  const bool ok = impl_->svr.listen_after_bind();
  impl_->in_run = false;
  if (!ok && !impl_->stopping) return Status::Error("listen: accepting connections failed");
  return Status::Ok();
}

void HttpServer::Stop() {
  if (impl_->stopping.exchange(true)) return;
  // listen_after_bind marks itself running only once it starts; httplib's
  // stop() does nothing before that and must be called once at most.
  while (impl_->in_run && !impl_->svr.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (impl_->svr.is_running()) impl_->svr.stop();
}

}  // namespace causegate::server
