// cpp-httplib glue. httplib parses requests, routes them and writes the
// answers; the daemon owns the connections. httplib's own connection loop
// holds one thread per connection for as long as it is open, waits for a
// request head with a timeout per recv (a byte every few seconds holds a
// worker for ever), and reads a chunked, gzip or length-less body whole,
// inflated, before any handler can refuse it. So:
//
// - GateHttp overrides process_and_close_socket: an accepted socket goes to
//   the ConnectionLobby, which holds idle and slow connections on one
//   thread and passes a connection to the WorkerPool only once its
//   request head is in (server/connection_lobby.h);
// - a worker runs httplib's process_request on a ConnectionStream, whose
//   reads share one deadline per request (server/connection_stream.h);
// - the pre-routing handler, which httplib calls after the headers and
//   before the body, refuses by route, method, token, size and coding
//   (server/request_screen.h); the POST routes read their body themselves
//   through httplib's content receiver, counting, and stop at
//   max_body_bytes whatever the transfer coding (413);
// - a connection is closed after any error answer (its body may be
//   unread); the lobby drains it briefly first so the client reads the
//   answer rather than a reset.
//
// Stop: httplib's stop() closes the listening socket; the accept loop
// ends and shuts its task queue down, which stops the lobby (closing the
// connections it holds, none of them in the middle of a request) and then
// the pool, whose workers finish the requests being served.
// Tests: tests/e2e/serve_test.py (auth, limits, routes, drain),
// serve_clients.py (idle and trickling clients), serve_limits.py (bodies).
#include "server/http_server.h"

#include <httplib.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "server/config.h"
#include "server/connection_lobby.h"
#include "server/connection_stream.h"
#include "server/next_head.h"
#include "server/request_head.h"
#include "server/request_screen.h"
#include "server/worker_pool.h"

namespace causegate::server {
namespace {

using httplib::Request;
using httplib::Response;
using HandlerResponse = httplib::Server::HandlerResponse;
using Clock = std::chrono::steady_clock;

// httplib's Server with the connection handling replaced.
class GateHttp final : public httplib::Server {
 public:
  std::function<void(int fd)> admit;

  // httplib listens with a backlog of 5: while its accept thread waits for
  // a core, further connections' SYNs are dropped and each costs its client
  // a 1 s retransmit (measured: 300 connections in 16 s on a loaded
  // machine). Listening again on the bound socket widens the queue.
  void WidenListenBacklog() { ::listen(svr_sock_, SOMAXCONN); }

  // One request on stream: parse, route, answer.
  bool ServeOne(httplib::Stream& stream, bool close_after, bool* client_closes) {
    bool closes = false;
    const bool ok = process_request(stream, close_after, closes, nullptr);
    *client_closes = closes;
    return ok;
  }

 private:
  bool process_and_close_socket(socket_t sock) override {
    admit(sock);
    return true;
  }
};

// httplib's accept loop hands each accepted socket to a task queue; admitting
// it to the lobby is all that job does, so it runs on the accept thread.
class AdmitInline final : public httplib::TaskQueue {
 public:
  explicit AdmitInline(std::function<void()> on_shutdown) : on_shutdown_(std::move(on_shutdown)) {}
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override { on_shutdown_(); }

 private:
  std::function<void()> on_shutdown_;
};

// What a worker learns of the request it is serving through httplib's
// callbacks, which run on the same thread.
struct RequestInFlight {
  ConnectionStream* stream = nullptr;
  int status = 0;
};
thread_local RequestInFlight* tl_request = nullptr;

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
    case 408: return "request timeout: the request did not arrive in time";
    case 413: return "request body too large";
    case 414: return "request URI too long";
    case 415: return "request body: unsupported Content-Encoding";
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
  // The connection is closed after an error: its body may be unread.
  if (reply.status >= 400) res->set_header("Connection", "close");
}

// SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which would let a
// second daemon bind the same port and take half the requests.
void ListenSocketOptions(socket_t sock) {
  int yes = 1;
  setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
}

// A request without Content-Length or Transfer-Encoding has no body
// (RFC 9112, section 6.3); httplib would read one until the client closes.
bool HasBody(const Request& req) {
  return req.has_header("Content-Length") || req.has_header("Transfer-Encoding");
}

}  // namespace

struct HttpServer::Impl {
  Impl(Service* s, Metrics* m, HttpOptions o) : service(s), metrics(m), options(std::move(o)) {}

  // 0 when the request may go on to its body, else the status of the
  // refusal already written into res.
  int Screen(const Request& req, Response& res) const {
    const std::string authorization = req.get_header_value("Authorization");
    const std::string content_encoding = req.get_header_value("Content-Encoding");
    const std::string transfer_encoding = req.get_header_value("Transfer-Encoding");
    const std::string content_length = req.get_header_value("Content-Length");
    RequestHead head;
    head.method = req.method;
    head.path = req.path;
    head.header_count = req.headers.size();
    for (const auto& header : req.headers) head.header_bytes += header.first.size() + header.second.size() + 4;
    head.authorization = authorization;
    head.content_encoding = content_encoding;
    head.transfer_encoding = transfer_encoding;
    head.content_length = content_length;
    head.has_content_length = req.has_header("Content-Length");
    ScreenLimits limits;
    limits.max_body_bytes = options.max_body_bytes;
    limits.max_header_bytes = options.max_header_bytes;
    limits.max_header_count = kMaxHeaderCount;
    limits.token = options.token;
    const HeadRefusal refusal = ScreenRequest(head, limits);
    if (refusal.status == 0) return 0;
    if (refusal.missing_token) {
      // Logged and counted: an agent whose hook is refused is unchecked,
      // and its user believes otherwise (a Claude Code http hook without
      // allowedEnvVars sends no token).
      spdlog::warn("{} {}: refused (401): {}", req.method, req.path, refusal.message);
      metrics->CountRefused(FindRoute(req.path)->path, Refusal::kToken);
    }
    Send(Service::Error(refusal.status, refusal.message), &res);
    if (!refusal.allow.empty()) res.set_header("Allow", refusal.allow);
    if (refusal.missing_token) res.set_header("WWW-Authenticate", "Bearer");
    return refusal.status;
  }

  void SetUp() {
    pool = std::make_unique<WorkerPool>(static_cast<std::size_t>(options.threads),
                                        static_cast<std::size_t>(options.threads + options.max_queued_connections));
    LobbyOptions lobby_options;
    lobby_options.max_connections = static_cast<std::size_t>(options.max_connections);
    lobby_options.idle_timeout = std::chrono::seconds(options.keep_alive_timeout_s);
    lobby_options.head_timeout = std::chrono::milliseconds(options.read_timeout_ms);
    lobby_options.head_limit = head_limit;
    lobby = std::make_unique<ConnectionLobby>(
        lobby_options,
        [this](Connection connection) {
          // std::function needs a copyable job; the connection moves in once.
          auto shared = std::make_shared<Connection>(std::move(connection));
          pool->Submit([this, shared] { ServeConnection(std::move(*shared)); });
        },
        [this](int status) { metrics->CountRequest("other", status); });
    svr.admit = [this](int fd) { lobby->Admit(fd); };
    svr.new_task_queue = [this] {
      return new AdmitInline([this] {
        lobby->Stop();
        pool->Shutdown();
      });
    };
    svr.set_socket_options(ListenSocketOptions);
    svr.set_tcp_nodelay(true);
    // Only for the Keep-Alive header httplib writes: the lobby enforces both.
    svr.set_keep_alive_max_count(static_cast<std::size_t>(options.keep_alive_max_requests));
    svr.set_keep_alive_timeout(options.keep_alive_timeout_s);
    svr.set_payload_max_length(options.max_body_bytes);
    svr.set_pre_routing_handler([this](const Request& req, Response& res) {
      return Screen(req, res) == 0 ? HandlerResponse::Unhandled : HandlerResponse::Handled;
    });
    // Expect: 100-continue: the refusal instead of the go-ahead, so the
    // client does not send a body that would be refused.
    svr.set_expect_100_continue_handler([this](const Request& req, Response& res) {
      const int status = Screen(req, res);
      return status == 0 ? 100 : status;
    });
    svr.set_error_handler([](const Request&, Response& res) {
      if (!res.body.empty()) return;
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
      if (tl_request != nullptr) tl_request->status = res.status;
      metrics->CountRequest(RouteLabel(req.path), res.status);
    });

    ServeBody("/hook", [this](const std::string& body) { return Hook(body); });
    ServeBody("/v1/judge", [this](const std::string& body) { return service->Judge(body); });
    ServeBody("/v1/reload", [this](const std::string&) { return service->Reload("POST /v1/reload"); });
    svr.Get("/healthz", [this](const Request&, Response& res) { Send(service->Health(), &res); });
    svr.Get("/metrics", [this](const Request&, Response& res) { Send(service->MetricsText(), &res); });
  }

  // A POST route: the body read here, counted, at most max_body_bytes of
  // it on any transfer coding (the screen has refused compressed bodies).
  void ServeBody(const char* path, std::function<Reply(const std::string&)> answer) {
    svr.Post(path, [this, answer = std::move(answer)](const Request& req, Response& res,
                                                      const httplib::ContentReader& read_body) {
      std::string body;
      if (HasBody(req)) {
        bool too_large = false;
        const bool read = read_body([this, &body, &too_large](const char* data, std::size_t size) {
          if (body.size() + size > options.max_body_bytes) {
            too_large = true;
            return false;
          }
          body.append(data, size);
          return true;
        });
        if (too_large) {
          return Send(Service::Error(413, "request body too large: over " + std::to_string(options.max_body_bytes) +
                                              " bytes"),
                      &res);
        }
        if (!read) {
          const bool late = tl_request != nullptr && tl_request->stream->timed_out();
          return Send(Service::Error(late ? 408 : 400, late ? StatusText(408) : "request body: cut short or malformed"),
                      &res);
        }
      }
      Send(answer(body), &res);
    });
  }

  // One connection, on a worker: its requests while their heads are in,
  // then back to the lobby (or closed).
  void ServeConnection(Connection connection) {
    while (true) {
      RequestInFlight request;
      bool ok = false;
      bool client_closes = false;
      const bool last = stopping || connection.requests_answered + 1 >= options.keep_alive_max_requests;
      {
        ConnectionStream stream(&connection, std::chrono::milliseconds(options.write_timeout_ms));
        stream.set_read_deadline(Clock::now() + std::chrono::milliseconds(options.read_timeout_ms));
        request.stream = &stream;
        tl_request = &request;
        ok = svr.ServeOne(stream, last, &client_closes);
        ok = stream.Flush() && ok;
        tl_request = nullptr;
      }
      ++connection.requests_answered;
      if (ok && request.status >= 400) return lobby->Linger(connection.fd);
      if (!ok || client_closes || last || stopping) {
        close(connection.fd);
        return lobby->Closed();
      }
      // The next request's head already here (pipelined), or in within a
      // moment (a client asking again at once): served on this worker,
      // without the round through the lobby (server/next_head.h).
      // Not while other requests wait for a worker: this one would keep a
      // busy client's connection and make them wait longer.
      const auto wait = pool->queued() == 0 ? kNextHeadWait : std::chrono::microseconds(0);
      const NextHead next = AwaitNextHead(&connection, wait, head_limit);
      if (next == NextHead::kClosed) {
        close(connection.fd);
        return lobby->Closed();
      }
      if (next == NextHead::kNotYet) return lobby->Return(std::move(connection));
    }
  }

  // Whatever goes wrong, a hook request is answered 200 and allows.
  Reply Hook(const std::string& body) {
    try {
      return service->Hook(body);
    } catch (const std::exception& e) {
      spdlog::error("POST /hook: allowed without judging (fail-open): internal error: {}", e.what());
      metrics->CountFailOpen("/hook", FailOpenReason::kInternal);
      Reply reply;
      reply.fail_open_reason = std::string("internal error: ") + e.what();
      return reply;
    }
  }

  Service* service;
  Metrics* metrics;
  const HttpOptions options;
  const std::size_t head_limit = RequestHeadLimit(options.max_header_bytes);
  std::atomic<bool> stopping{false};
  std::atomic<bool> in_run{false};
  // Destroyed in reverse: the lobby (which hands connections to the pool)
  // stops first, then the pool (whose jobs use svr).
  GateHttp svr;
  std::unique_ptr<WorkerPool> pool;
  std::unique_ptr<ConnectionLobby> lobby;
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
  impl_->svr.WidenListenBacklog();
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
