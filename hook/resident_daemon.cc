// How the daemon stays exactly the hook: every stop goes through
// JudgeHookInput with the options parsed from the client's own command
// line, so flags, config files (read at every stop, as the hook reads them)
// and the per-turn settlement are the hook's. What differs is kept out of
// the verdict: the rule sets come from a cache keyed by the packs' files
// (hook/rule_cache.h), and what the judging logs is captured per thread at
// the client's CAUSEGATE_LOG level, in the hook's own "causegate: " form,
// and sent back as the client's stderr. What the process itself has to say
// goes to the log file. The environment the judging reads (HOME, the XDG
// folders, the transcript wait) is the daemon's own: it is part of the
// fingerprint, so a client with another one is never served.
#include "hook/resident_daemon.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <spdlog/details/log_msg.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "evidence/limits.h"
#include "gate/daemon_caches.h"
#include "gate/hook_input.h"
#include "hook/agent_console.h"
#include "hook/resident.h"
#include "hook/rule_cache.h"

namespace causegate::hook {
namespace {

using Clock = std::chrono::steady_clock;

// More stops at once than this are declined (judged by their own hook).
constexpr int kMaxConnections = 32;
// A request must arrive whole within this.
constexpr std::chrono::milliseconds kRequestBound{2000};
// How long a second daemon waits for the first to let go of the lock (a
// stale one finishing its last answers).
constexpr std::chrono::milliseconds kLockWait{3000};
// Log files past this are started again at the daemon's start.
constexpr off_t kMaxLogBytes = 1 << 20;

// What one connection's thread captures of the log: its client's stderr.
struct Capture {
  std::string* out = nullptr;
  spdlog::level::level_enum level = spdlog::level::info;
};
thread_local Capture t_capture;

// The daemon's one sink: a captured line goes to the client in the hook's
// form, anything else to the log file (stderr) with a time stamp.
class DaemonSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  DaemonSink()
      : hook_form_(std::make_unique<spdlog::pattern_formatter>("causegate: %v")),
        file_form_(std::make_unique<spdlog::pattern_formatter>("[%Y-%m-%d %H:%M:%S.%e] [%l] %v")) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t text;
    if (t_capture.out != nullptr) {
      if (msg.level < t_capture.level) return;
      hook_form_->format(msg, text);
      t_capture.out->append(text.data(), text.size());
      return;
    }
    if (msg.level < spdlog::level::info) return;
    file_form_->format(msg, text);
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  }
  void flush_() override { std::fflush(stderr); }

 private:
  std::unique_ptr<spdlog::formatter> hook_form_;
  std::unique_ptr<spdlog::formatter> file_form_;
};

class CaptureScope {
 public:
  CaptureScope(std::string* out, const std::string& level) {
    t_capture.out = out;
    t_capture.level = level.empty() ? spdlog::level::info : spdlog::level::from_str(level);
  }
  ~CaptureScope() { t_capture.out = nullptr; }
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;
};

class Daemon {
 public:
  explicit Daemon(const ResidentDaemonOptions& options)
      : options_(options), fingerprint_(ResidentFingerprint(options.version, SelfBinary())) {}

  int Run();

 private:
  Status Listen();
  void Serve(int fd, pid_t peer);
  void Answer(int fd, pid_t peer, const ResidentRequest& request);
  void Exit(const std::string& why);
  bool WriteAll(int fd, const std::string& data);

  const ResidentDaemonOptions& options_;
  const std::string fingerprint_;
  const Clock::time_point started_ = Clock::now();
  std::string folder_;
  std::string socket_path_;
  ino_t socket_inode_ = 0;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};
  RuleCache cache_;
  std::atomic<unsigned long long> verdicts_{0};
  std::atomic<bool> exiting_{false};
  std::mutex mu_;
  std::condition_variable idle_cv_;
  int active_ = 0;                        // guarded by mu_
  Clock::time_point last_ = Clock::now();  // guarded by mu_: the last request's end
};

int g_wake_fd = -1;
void OnTerm(int) {
  const char byte = 't';
  if (g_wake_fd >= 0) (void)!::write(g_wake_fd, &byte, 1);
}

Status Daemon::Listen() {
  if (Status s = ResidentFolder(&folder_); !s.ok()) return s;
  const std::string lock_path = ResidentLockPath(folder_);
  const int lock_fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock_fd < 0) return Status::Error(lock_path + ": " + std::strerror(errno));
  const Clock::time_point lock_deadline = Clock::now() + kLockWait;
  while (::flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
    if (Clock::now() >= lock_deadline) return Status::Error(lock_path + ": another daemon holds it");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // The lock is held until the process exits: lock_fd is never closed.
  socket_path_ = ResidentSocketPath(folder_);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path_.size() >= sizeof addr.sun_path) return Status::Error(socket_path_ + ": path too long for a socket");
  std::memcpy(addr.sun_path, socket_path_.c_str(), socket_path_.size() + 1);
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) return Status::Error(std::string("socket: ") + std::strerror(errno));
  ::unlink(socket_path_.c_str());  // a dead daemon's: we hold the lock
  const mode_t old_mask = ::umask(0177);
  const int bound = ::bind(listen_fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
  ::umask(old_mask);
  if (bound != 0) return Status::Error(socket_path_ + ": bind: " + std::strerror(errno));
  ::chmod(socket_path_.c_str(), 0600);
  struct stat st {};
  if (::stat(socket_path_.c_str(), &st) == 0) socket_inode_ = st.st_ino;
  if (::listen(listen_fd_, 64) != 0) return Status::Error(socket_path_ + ": listen: " + std::strerror(errno));
  return Status::Ok();
}

void Daemon::Exit(const std::string& why) {
  if (exiting_.exchange(true)) return;
  std::string* captured = t_capture.out;  // the daemon's own line: to the log file
  t_capture.out = nullptr;
  spdlog::info("exiting: {}", why);
  t_capture.out = captured;
  const char byte = 'x';
  (void)!::write(wake_[1], &byte, 1);
}

bool Daemon::WriteAll(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return false;
    }
  }
  return true;
}

// A relative path in the input would be read from the daemon's folder, not
// the client's: such a stop is the client's to judge.
bool RelativePaths(const std::string& input, const HookCommandOptions& options) {
  gate::HookRequest request;
  if (!gate::ParseHookInput(input, options.agent, &request).ok()) return false;
  for (const std::string* path : {&request.transcript_path, &request.agent_transcript_path, &request.cwd}) {
    if (!path->empty() && (*path)[0] != '/' && path->rfind("~/", 0) != 0) return true;
  }
  return false;
}

void Daemon::Answer(int fd, pid_t peer, const ResidentRequest& request) {
  // From here on, what is logged is the client's stderr: reading the
  // command line may warn too (an unknown --agent).
  std::string err;
  CaptureScope capture(&err, request.log);
  HookCommandOptions hook;
  if (Status s = options_.parse(request, &hook); !s.ok()) {
    WriteAll(fd, "declined " + s.message().substr(0, s.message().find('\n')) + "\n");
    return;
  }
  if (!hook.daemon.url.empty()) {
    WriteAll(fd, "declined --server is given\n");
    return;
  }
  if (request.resident != "1" && !ReadResidentSettings().resident) {
    WriteAll(fd, "declined the user config does not say \"resident\": true\n");
    Exit("the user config does not say \"resident\": true");
    return;
  }
  if (request.input.size() > limits::kMaxHookInputBytes) {  // the hook fails open on it: the client's to say
    WriteAll(fd, "declined hook input over the bound\n");
    return;
  }
  if (RelativePaths(request.input, hook)) {
    WriteAll(fd, "declined a relative path in the hook input\n");
    return;
  }
  hook.cache = &cache_;
  const HookAnswer answer = JudgeHookInput(hook, request.input);
  if (!answer.headless_warning.empty()) WarnHeadlessAgentUserAbove(peer, request.stderr_id, answer.headless_warning);
  ++verdicts_;
  WriteAll(fd, "answer " + std::to_string(answer.out.size()) + " " + std::to_string(err.size()) + "\n" + answer.out +
                   err);
}

void Daemon::Serve(int fd, pid_t peer) {
  std::string buffer;
  ResidentRequest request;
  bool complete = false;
  const Clock::time_point deadline = Clock::now() + kRequestBound;
  char chunk[65536];
  while (!complete) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    pollfd p{fd, POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) return;
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return;
    buffer.append(chunk, static_cast<std::size_t>(n));
    if (buffer.size() > kMaxResidentRequestBytes) return;
    if (Status s = DecodeResidentRequest(buffer, &request, &complete); !s.ok()) {
      spdlog::warn("{}", s.message());
      return;
    }
  }
  if (request.op == "status") {
    const auto uptime = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - started_).count();
    WriteAll(fd, "status pid=" + std::to_string(::getpid()) + " uptime_s=" + std::to_string(uptime) +
                     " verdicts=" + std::to_string(verdicts_.load()) + " fingerprint=" + fingerprint_ + "\n");
    return;
  }
  if (request.op == "exit") {
    WriteAll(fd, "declined exiting\n");
    Exit("asked to");
    return;
  }
  if (request.fingerprint != fingerprint_) {
    WriteAll(fd, "stale\n");
    Exit("a client with fingerprint " + request.fingerprint + " (mine " + fingerprint_ + ")");
    return;
  }
  if (request.op != "hook") {
    WriteAll(fd, "declined unknown op\n");
    return;
  }
  if (!WriteAll(fd, "judging\n")) return;
  Answer(fd, peer, request);
}

int Daemon::Run() {
  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) {
    spdlog::error("pipe: {}", std::strerror(errno));
    return 1;
  }
  if (Status s = Listen(); !s.ok()) {
    spdlog::info("not started: {}", s.message());
    return 1;
  }
  g_wake_fd = wake_[1];
  struct sigaction term {};
  term.sa_handler = OnTerm;
  ::sigaction(SIGTERM, &term, nullptr);
  ::sigaction(SIGINT, &term, nullptr);
  const ResidentSettings settings = ReadResidentSettings();
  const auto idle = std::chrono::seconds(settings.idle_seconds);
  spdlog::info("pid {} on {}, fingerprint {}, idle exit after {} s", ::getpid(), socket_path_, fingerprint_,
               settings.idle_seconds);
  while (!exiting_) {
    Clock::time_point idle_at;
    {
      std::lock_guard<std::mutex> lock(mu_);
      idle_at = active_ > 0 ? Clock::now() + idle : last_ + idle;
    }
    if (Clock::now() >= idle_at) {
      Exit("idle for " + std::to_string(settings.idle_seconds) + " s");
      break;
    }
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(idle_at - Clock::now()).count() + 1;
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    const int n = ::poll(fds, 2, static_cast<int>(std::min<long long>(wait, 60000)));
    if (n < 0 && errno != EINTR) break;
    if (fds[1].revents != 0) {
      char byte = 0;
      if (::read(wake_[0], &byte, 1) == 1 && byte == 't') Exit("SIGTERM");
      continue;
    }
    if (n <= 0 || (fds[0].revents & POLLIN) == 0) continue;
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    ucred peer{};
    socklen_t len = sizeof peer;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) != 0 || peer.uid != ::getuid()) {
      spdlog::warn("refused a client of uid {} (this daemon serves uid {} only)", peer.uid, ::getuid());
      ::close(fd);
      continue;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (active_ >= kMaxConnections) {
        WriteAll(fd, "declined busy\n");
        ::close(fd);
        continue;
      }
      ++active_;
    }
    std::thread([this, fd, peer] {
      Serve(fd, peer.pid);
      ::close(fd);
      std::lock_guard<std::mutex> lock(mu_);
      --active_;
      last_ = Clock::now();
      idle_cv_.notify_all();
    }).detach();
  }
  // Stop taking stops: a client that connects now finds no socket and
  // judges locally (the socket is removed only while it is still ours).
  struct stat st {};
  if (::stat(socket_path_.c_str(), &st) == 0 && st.st_ino == socket_inode_) ::unlink(socket_path_.c_str());
  ::close(listen_fd_);
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait_for(lock, std::chrono::seconds(30), [this] { return active_ == 0; });
  return 0;
}

}  // namespace

int RunResidentDaemon(const ResidentDaemonOptions& options) {
  // stderr is the log file (StartResidentDaemon): keep it small.
  struct stat st {};
  if (::fstat(STDERR_FILENO, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > kMaxLogBytes) {
    (void)!::ftruncate(STDERR_FILENO, 0);
  }
  auto logger = std::make_shared<spdlog::logger>("causegate", std::make_shared<DaemonSink>());
  logger->set_level(spdlog::level::trace);
  spdlog::set_default_logger(logger);
  // The same sessions' lines and tool output, stop after stop: read once.
  gate::EnableDaemonCaches();
  Daemon daemon(options);
  return daemon.Run();
}

}  // namespace causegate::hook
