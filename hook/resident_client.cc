// Plumbing: a nonblocking AF_UNIX stream socket, poll() deadlines on every
// wait, and the answer frames of hook/resident_wire.h.
#include "hook/resident_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "hook/poll_deadline.h"

namespace causegate::hook {
namespace {

using Clock = DeadlineClock;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

ResidentResult Failed(std::string why) {
  ResidentResult r;
  r.reply = ResidentReply::kFailed;
  r.why = std::move(why);
  return r;
}

bool SendAll(int fd, const std::string& data, Clock::time_point deadline) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (!WaitFor(fd, POLLOUT, deadline)) return false;
    } else {
      return false;
    }
  }
  return true;
}

// Reads into *buffer until done(*buffer) or the peer closes; false on a
// timeout, an error or an answer too large.
template <typename Done>
bool ReadUntil(int fd, Clock::time_point deadline, std::string* buffer, Done done) {
  char chunk[65536];
  while (!done(*buffer)) {
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n > 0) {
      buffer->append(chunk, static_cast<std::size_t>(n));
      if (buffer->size() > kMaxResidentAnswerBytes) return false;
    } else if (n == 0) {
      return done(*buffer);
    } else if (errno == EAGAIN || errno == EINTR) {
      if (!WaitFor(fd, POLLIN, deadline)) return false;
    } else {
      return false;
    }
  }
  return true;
}

bool HasLine(const std::string& b) { return b.find('\n') != std::string::npos; }

}  // namespace

ResidentBounds ResidentHookBounds() {
  ResidentBounds bounds;
  long wait_ms = 2000;
  if (const char* value = std::getenv("CAUSEGATE_TRANSCRIPT_WAIT_MS"); value != nullptr && *value != '\0') {
    char* end = nullptr;
    const long ms = std::strtol(value, &end, 10);
    if (*end == '\0' && ms >= 0 && ms <= 20000) wait_ms = ms;
  }
  bounds.answer_ms = static_cast<int>(wait_ms) + 3000;
  return bounds;
}

ResidentResult AskResident(const std::string& socket_path, const ResidentRequest& request,
                           const ResidentBounds& bounds) {
  std::string wire;
  if (Status s = EncodeResidentRequest(request, &wire); !s.ok()) return Failed(s.message());
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof addr.sun_path) return Failed(socket_path + ": path too long for a socket");
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  Fd sock(::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (sock.get() < 0) return Failed(std::string("socket: ") + std::strerror(errno));
  const Clock::time_point send_deadline = Clock::now() + std::chrono::milliseconds(bounds.connect_ms);
  if (::connect(sock.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    if (errno == ENOENT || errno == ECONNREFUSED) {
      ResidentResult r;
      r.reply = ResidentReply::kNoDaemon;
      r.why = socket_path + ": " + std::strerror(errno);
      return r;
    }
    // A full backlog (EAGAIN) is a daemon too busy to answer in time.
    return Failed(socket_path + ": connect: " + std::strerror(errno));
  }
  ucred peer{};
  socklen_t len = sizeof peer;
  if (::getsockopt(sock.get(), SOL_SOCKET, SO_PEERCRED, &peer, &len) != 0 || peer.uid != getuid()) {
    return Failed(socket_path + ": the daemon runs as uid " + std::to_string(peer.uid) + ", not as this user");
  }
  if (!SendAll(sock.get(), wire, send_deadline)) return Failed(socket_path + ": timed out sending the request");

  std::string buffer;
  if (!ReadUntil(sock.get(), Clock::now() + std::chrono::milliseconds(bounds.ack_ms), &buffer, HasLine)) {
    return Failed(socket_path + ": no answer within " + std::to_string(bounds.ack_ms) + " ms");
  }
  const std::size_t nl = buffer.find('\n');
  std::string first = buffer.substr(0, nl);
  if (first == "judging") {
    buffer.erase(0, nl + 1);
    if (!ReadUntil(sock.get(), Clock::now() + std::chrono::milliseconds(bounds.answer_ms), &buffer, HasLine)) {
      return Failed(socket_path + ": no verdict within " + std::to_string(bounds.answer_ms) + " ms");
    }
    first = buffer.substr(0, buffer.find('\n'));
  }
  ResidentResult r;
  if (first == "stale") {
    r.reply = ResidentReply::kStale;
    return r;
  }
  if (first.rfind("declined ", 0) == 0) {
    r.reply = ResidentReply::kDeclined;
    r.why = first.substr(9);
    return r;
  }
  if (first.rfind("status ", 0) == 0) {
    r.reply = ResidentReply::kStatus;
    r.why = first.substr(7);
    return r;
  }
  unsigned long long out_bytes = 0, err_bytes = 0;
  char tail = 0;
  if (std::sscanf(first.c_str(), "answer %llu %llu%c", &out_bytes, &err_bytes, &tail) != 2 ||
      out_bytes + err_bytes > kMaxResidentAnswerBytes) {
    return Failed(socket_path + ": not an answer: \"" + first.substr(0, 80) + "\"");
  }
  const std::size_t body = buffer.find('\n') + 1;
  const std::size_t want = body + static_cast<std::size_t>(out_bytes + err_bytes);
  if (!ReadUntil(sock.get(), Clock::now() + std::chrono::milliseconds(bounds.answer_ms), &buffer,
                 [want](const std::string& b) { return b.size() >= want; }) ||
      buffer.size() != want) {
    return Failed(socket_path + ": answer cut short");
  }
  r.reply = ResidentReply::kAnswer;
  r.out = buffer.substr(body, static_cast<std::size_t>(out_bytes));
  r.err = buffer.substr(body + static_cast<std::size_t>(out_bytes));
  return r;
}

}  // namespace causegate::hook
