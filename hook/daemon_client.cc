// The hook's side of the daemon protocol: one HTTP/1.1 POST over a plain
// socket. Not cpp-httplib: linking it costs every hook call, daemon or not,
// the library's OpenSSL start-up (two thirds of the process's start-up
// instructions, measured with callgrind), for one request to a daemon on
// the same machine. So this speaks only what that request needs: http (a
// daemon behind TLS is reached through a local proxy), a Content-Length or
// close-delimited answer, and a deadline on every wait. The timeout is
// short on purpose: the agent is waiting, and judging locally is always
// possible, so a daemon that does not answer at once is skipped.
#include "hook/daemon_client.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "hook/poll_deadline.h"

namespace causegate::hook {
namespace {

using Clock = DeadlineClock;

// Answers larger than this are not the hook's JSON: refuse them.
constexpr std::size_t kMaxAnswerBytes = std::size_t{1} << 20;

struct Url {
  std::string host;
  std::string port = "80";
  std::string prefix;  // path prefix without a trailing '/'
};

// "http://host[:port][/prefix]"; IPv6 hosts in brackets.
Status ParseUrl(const std::string& url, Url* out) {
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0) {
    return Status::Error("daemon URL \"" + url + "\": write it as http://HOST:PORT (https: put a local proxy in front)");
  }
  const std::size_t host_start = scheme.size();
  const std::size_t path_start = url.find('/', host_start);
  std::string authority = url.substr(host_start, path_start == std::string::npos ? std::string::npos
                                                                                  : path_start - host_start);
  out->prefix = path_start == std::string::npos ? "" : url.substr(path_start);
  while (!out->prefix.empty() && out->prefix.back() == '/') out->prefix.pop_back();
  std::size_t colon = std::string::npos;
  if (!authority.empty() && authority[0] == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string::npos) return Status::Error("daemon URL \"" + url + "\": unclosed [");
    out->host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return Status::Error("daemon URL \"" + url + "\": bad port");
      colon = close + 1;
    }
  } else {
    colon = authority.rfind(':');
    out->host = authority.substr(0, colon);
  }
  if (colon != std::string::npos) out->port = authority.substr(colon + 1);
  if (out->host.empty()) return Status::Error("daemon URL \"" + url + "\": no host");
  if (out->port.empty() || out->port.find_first_not_of("0123456789") != std::string::npos) {
    return Status::Error("daemon URL \"" + url + "\": bad port");
  }
  return Status::Ok();
}

class Socket {
 public:
  Socket() = default;
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }
  void reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

Status Connect(const Url& url, Clock::time_point deadline, Socket* sock) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(url.host.c_str(), url.port.c_str(), &hints, &found); rc != 0) {
    return Status::Error(std::string("cannot resolve ") + url.host + ": " + ::gai_strerror(rc));
  }
  std::string last_error = "no address";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    sock->reset(::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
    if (sock->fd() < 0) {
      last_error = std::strerror(errno);
      continue;
    }
    if (::connect(sock->fd(), a->ai_addr, a->ai_addrlen) == 0) break;
    if (errno != EINPROGRESS) {
      last_error = std::strerror(errno);
      sock->reset(-1);
      continue;
    }
    if (!WaitFor(sock->fd(), POLLOUT, deadline)) {
      last_error = "connection timed out";
      sock->reset(-1);
      continue;
    }
    int error = 0;
    socklen_t len = sizeof error;
    ::getsockopt(sock->fd(), SOL_SOCKET, SO_ERROR, &error, &len);
    if (error == 0) break;
    last_error = std::strerror(error);
    sock->reset(-1);
  }
  ::freeaddrinfo(found);
  if (sock->fd() < 0) return Status::Error(last_error);
  return Status::Ok();
}

Status SendAll(int fd, std::string_view data, Clock::time_point deadline) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      if (!WaitFor(fd, POLLOUT, deadline)) return Status::Error("timed out sending");
    } else {
      return Status::Error(std::string("send: ") + std::strerror(errno));
    }
  }
  return Status::Ok();
}

// Reads until the peer closes, the body is complete or the deadline passes.
// complete(buffer) says whether enough has arrived.
template <typename Complete>
Status ReadAnswer(int fd, Clock::time_point deadline, std::string* buffer, Complete complete) {
  char chunk[16384];
  while (!complete(*buffer)) {
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n > 0) {
      buffer->append(chunk, static_cast<std::size_t>(n));
      if (buffer->size() > kMaxAnswerBytes) return Status::Error("answer larger than 1 MiB");
    } else if (n == 0) {
      return Status::Ok();  // closed: the caller checks what arrived
    } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
      if (!WaitFor(fd, POLLIN, deadline)) return Status::Error("timed out waiting for the answer");
    } else {
      return Status::Error(std::string("recv: ") + std::strerror(errno));
    }
  }
  return Status::Ok();
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Answer {
  int status = 0;
  bool failed_open = false;       // Causegate-Fail-Open header present
  std::string fail_open;          // its value: why
  long long content_length = -1;  // -1: delimited by close
  bool chunked = false;
  std::size_t body_start = 0;
};

// Parses the status line and headers of buffer[0, end of headers).
bool ParseHead(const std::string& buffer, Answer* answer) {
  const std::size_t head_end = buffer.find("\r\n\r\n");
  if (head_end == std::string::npos) return false;
  answer->body_start = head_end + 4;
  std::size_t line_end = buffer.find("\r\n");
  const std::string status_line = buffer.substr(0, line_end);
  if (status_line.compare(0, 5, "HTTP/") != 0) return false;
  const std::size_t space = status_line.find(' ');
  if (space == std::string::npos) return false;
  answer->status = std::atoi(status_line.c_str() + space + 1);
  while (line_end < head_end) {
    const std::size_t start = line_end + 2;
    line_end = buffer.find("\r\n", start);
    const std::string line = buffer.substr(start, line_end - start);
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string name = Lower(line.substr(0, colon));
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (name == "content-length") answer->content_length = std::atoll(value.c_str());
    if (name == "transfer-encoding" && Lower(value).find("chunked") != std::string::npos) answer->chunked = true;
    if (name == "causegate-fail-open") {
      answer->failed_open = true;
      answer->fail_open = value;
    }
  }
  return true;
}

// One request, its answer's head and body. method "POST" sends input.
Status Exchange(const DaemonOptions& options, const std::string& method, const std::string& route,
                std::string_view input, Answer* head, std::string* body) {
  Url url;
  if (Status s = ParseUrl(options.url, &url); !s.ok()) return s;
  const std::string where = "daemon at " + options.url + ": ";
  Socket sock;
  if (Status s = Connect(url, Clock::now() + std::chrono::milliseconds(options.timeout_ms), &sock); !s.ok()) {
    return Status::Error(where + s.message());
  }
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(options.timeout_ms);
  std::string request = method + " " + url.prefix + route + " HTTP/1.1\r\nHost: " + url.host + ":" + url.port +
                        "\r\nConnection: close\r\n";
  if (method == "POST") {
    request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(input.size()) + "\r\n";
  }
  if (!options.token.empty()) request += "Authorization: Bearer " + options.token + "\r\n";
  request += "\r\n";
  if (Status s = SendAll(sock.fd(), request, deadline); !s.ok()) return Status::Error(where + s.message());
  if (Status s = SendAll(sock.fd(), input, deadline); !s.ok()) return Status::Error(where + s.message());

  std::string buffer;
  bool have_head = false;
  Status read = ReadAnswer(sock.fd(), deadline, &buffer, [&](const std::string& b) {
    if (!have_head) have_head = ParseHead(b, head);
    return have_head && head->content_length >= 0 &&
           b.size() >= head->body_start + static_cast<std::size_t>(head->content_length);
  });
  if (!read.ok()) return Status::Error(where + read.message());
  if (!have_head && !ParseHead(buffer, head)) return Status::Error(where + "not an HTTP answer");
  if (head->status != 200) return Status::Error(where + "HTTP " + std::to_string(head->status));
  if (head->chunked) return Status::Error(where + "chunked answers are not read");
  *body = buffer.substr(head->body_start);
  if (head->content_length >= 0) {
    if (body->size() < static_cast<std::size_t>(head->content_length)) return Status::Error(where + "answer cut short");
    body->resize(static_cast<std::size_t>(head->content_length));
  }
  return Status::Ok();
}

}  // namespace

Status AskDaemon(const DaemonOptions& options, std::string_view input, std::string* answer) {
  Answer head;
  std::string body;
  if (Status s = Exchange(options, "POST", "/hook", input, &head, &body); !s.ok()) return s;
  if (head.failed_open) return Status::Error("daemon at " + options.url + ": did not judge: " + head.fail_open);
  *answer = std::move(body);
  return Status::Ok();
}

Status ProbeDaemon(const DaemonOptions& options, std::string* body) {
  Answer head;
  return Exchange(options, "GET", "/healthz", "", &head, body);
}

}  // namespace causegate::hook
