// causegate-hook: `causegate hook` for a warm resident daemon, at the cost of
// a forward. A static binary of libc and this file's few helpers: no
// dynamic linker, no rule packs, no logging or JSON library, so asking the
// daemon costs what the request costs (bench/RESULTS.md, "The resident
// client"). It takes causegate's own command line (`causegate-hook hook
// --agent NAME ...`, what `init --resident` registers) and, whenever the
// daemon does not answer (none runs, it is stale, it declined, it is slow,
// the gate is off, or the command is not a hook call), execs `causegate`
// from its own folder with the same arguments, the hook input handed over
// on a memfd as its stdin, and CAUSEGATE_RESIDENT_TRIED saying what the
// daemon answered, so that `causegate` neither asks again nor judges
// differently. Tests: tests/e2e/resident_gate.py (every check runs through
// both binaries), bench/resident_bench.py.
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "evidence/limits.h"
#include "hook/resident_client.h"
#include "hook/resident_wire.h"

namespace {

using causegate::hook::ResidentReply;

std::string Folder(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string SelfPath() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
}

// True when argv runs `hook` without --server: its first word that is not
// an option or the value of --rules (as causegate's main reads it).
bool PlainHookCall(int argc, char** argv) {
  bool hook = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!hook) {
      if (arg == "--rules") {
        ++i;
      } else if (arg.empty() || arg[0] != '-') {
        if (arg != "hook") return false;
        hook = true;
      }
    } else if (arg == "--server" || arg.rfind("--server=", 0) == 0) {
      return false;
    }
  }
  return hook;
}

// Reads stdin whole, up to one byte past the hook's bound (causegate then
// fails open on it, as it would have).
bool ReadInput(std::string* input) {
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (n > 0) {
      input->append(chunk, static_cast<std::size_t>(n));
      if (input->size() > causegate::limits::kMaxHookInputBytes) return true;
    } else if (n == 0) {
      return true;
    } else if (errno != EINTR) {
      return false;
    }
  }
}

// The input read so far becomes the stdin of the process exec'd next.
bool HandOver(const std::string& input) {
  const int fd = ::memfd_create("causegate-hook-input", 0);
  if (fd < 0) return false;
  std::size_t written = 0;
  while (written < input.size()) {
    const ssize_t n = ::write(fd, input.data() + written, input.size() - written);
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return ::lseek(fd, 0, SEEK_SET) == 0 && ::dup2(fd, STDIN_FILENO) == STDIN_FILENO && ::close(fd) == 0;
}

[[noreturn]] void ExecCausegate(const std::string& causegate, char** argv) {
  ::execv(causegate.c_str(), argv);
  // Nothing on stdout, exit 0: a hook that cannot run must not block.
  std::fprintf(stderr, "causegate-hook: cannot run %s: %s; the stop is allowed unjudged\n", causegate.c_str(),
               std::strerror(errno));
  ::_exit(0);
}

bool WriteAll(int fd, const std::string& data) {
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

const char* TriedValue(const causegate::hook::ResidentResult& result, std::string* storage) {
  switch (result.reply) {
    case ResidentReply::kNoDaemon: return "none";
    case ResidentReply::kStale: return "stale";
    case ResidentReply::kDeclined: *storage = "declined:" + result.why; return storage->c_str();
    default: *storage = "failed:" + result.why; return storage->c_str();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string causegate = Folder(SelfPath()) + "/causegate";
  const char* on = std::getenv(causegate::hook::kResidentEnv);
  if (!PlainHookCall(argc, argv) || (on != nullptr && std::strcmp(on, "0") == 0)) ExecCausegate(causegate, argv);
  std::string input;
  if (!ReadInput(&input)) ExecCausegate(causegate, argv);  // causegate reports the unreadable stdin
  std::string folder;
  causegate::hook::ResidentResult result;
  if (input.size() > causegate::limits::kMaxHookInputBytes) {
    result.reply = ResidentReply::kDeclined;  // causegate fails open on it, as it would have
    result.why = "hook input over the bound";
  } else if (causegate::hook::ResidentFolder(&folder).ok()) {
    causegate::hook::ResidentRequest request;
    request.fingerprint = causegate::hook::ResidentFingerprint(CAUSEGATE_VERSION, causegate);
    request.resident = on != nullptr && (std::strcmp(on, "1") == 0) ? "1" : "";
    const char* log = std::getenv("CAUSEGATE_LOG");
    request.log = log == nullptr ? "" : log;
    const char* plugin_root = std::getenv("CLAUDE_PLUGIN_ROOT");
    request.plugin_root = plugin_root == nullptr ? "" : plugin_root;
    request.stderr_id = causegate::hook::FileIdOf(STDERR_FILENO);
    argv[0] = const_cast<char*>(causegate.c_str());  // the daemon reads the command line as causegate's
    request.args.assign(argv, argv + argc);
    request.input = input;
    result = causegate::hook::AskResident(causegate::hook::ResidentSocketPath(folder), request,
                                          causegate::hook::ResidentHookBounds());
    if (result.reply == ResidentReply::kAnswer) {
      WriteAll(STDOUT_FILENO, result.out);
      WriteAll(STDERR_FILENO, result.err);
      return 0;
    }
  } else {
    result.reply = ResidentReply::kNoDaemon;  // causegate says what is wrong with the folder
  }
  std::string storage;
  ::setenv(causegate::hook::kResidentTriedEnv, TriedValue(result, &storage), 1);
  if (!HandOver(input)) {
    std::fprintf(stderr, "causegate-hook: cannot hand the hook input over: %s; the stop is allowed unjudged\n",
                 std::strerror(errno));
    return 0;
  }
  ExecCausegate(causegate, argv);
}
