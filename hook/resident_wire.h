// The resident gate's wire: where its socket lives, the fingerprint a
// client sends, and the request and answer frames on the Unix socket
// between `causegate hook` and the per-user daemon (hook/resident_daemon.h).
// Plain C++ over libc, no logging or JSON library, so that the small client
// binary (cli/hook_client_main.cc) is built from it too.
//
// A request, all lines ending in "\n":
//   causegate-resident 1
//   op hook | status | exit
//   fingerprint HEX          (ResidentFingerprint of the client)
//   resident 0|1|            (CAUSEGATE_RESIDENT, "" when unset)
//   log LEVEL                (CAUSEGATE_LOG, "" when unset)
//   plugin_root PATH         (CLAUDE_PLUGIN_ROOT, "" when unset)
//   stderr DEV:INO           (the client's stderr, for the headless warning)
//   arg WORD                 (the command line, one line per word)
//   input N                  (then a blank line and N bytes of hook input)
// The daemon answers "judging\n" as soon as it took the request (the client
// gives up quickly when that does not come), then one of
//   answer OUT ERR\n<OUT bytes of stdout><ERR bytes of stderr>
//   stale\n                  (fingerprints differ: the daemon exits)
//   declined WHY\n           (judge locally; WHY is one line)
//   status pid=P uptime_s=U verdicts=V fingerprint=HEX\n
// Tests: tests/e2e/resident_gate.py.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/status.h"

namespace causegate::hook {

inline constexpr std::string_view kResidentMagic = "causegate-resident 1";
// The environment switch: "0" off, "1" on for this process (else the
// user config's "resident" decides).
inline constexpr const char* kResidentEnv = "CAUSEGATE_RESIDENT";
// Set by causegate-hook when it execs causegate after asking the daemon:
// "none", "stale", "declined:WHY" or "failed:WHY" (cli/hook_client_main.cc).
inline constexpr const char* kResidentTriedEnv = "CAUSEGATE_RESIDENT_TRIED";
// Whole requests larger than this are refused (the hook's own input bound
// plus the header).
inline constexpr std::size_t kMaxResidentRequestBytes = (std::size_t{8} << 20) + 65536;
// Answers larger than this are not the hook's stdout and stderr.
inline constexpr std::size_t kMaxResidentAnswerBytes = std::size_t{4} << 20;
// Default idle time before the daemon exits (config "resident_idle_seconds").
inline constexpr int kDefaultResidentIdleSeconds = 30 * 60;

// The folder of the socket: $XDG_RUNTIME_DIR/causegate when XDG_RUNTIME_DIR
// is an absolute path, else /tmp/causegate-UID. Created 0700 when absent;
// an error when it is not a folder owned by this user with no group or
// other access (someone else's folder must never hold our socket).
Status ResidentFolder(std::string* out);
std::string ResidentSocketPath(const std::string& folder);  // folder + "/resident.sock"
std::string ResidentLockPath(const std::string& folder);    // folder + "/resident.lock"
std::string ResidentLogPath(const std::string& folder);     // folder + "/resident.log"

// What a daemon must share with its client to judge exactly as the client
// would: the version, the judging binary (device, inode, size, mtime of
// binary_path: a rebuilt or reinstalled binary differs), and the
// environment the judging reads (HOME, XDG_CONFIG_HOME, XDG_STATE_HOME,
// CAUSEGATE_TRANSCRIPT_WAIT_MS). Sixteen hex digits; "" when the binary
// cannot be stat'ed.
std::string ResidentFingerprint(const std::string& version, const std::string& binary_path);

struct ResidentRequest {
  std::string op = "hook";
  std::string fingerprint;
  std::string resident;
  std::string log;
  std::string plugin_root;
  std::string stderr_id;             // "DEV:INO", "" when unknown
  std::vector<std::string> args;     // the command line, argv[0] first
  std::string input;
};

// Encodes request. Error when a word or value holds a newline (the client
// then judges locally).
Status EncodeResidentRequest(const ResidentRequest& request, std::string* out);

// Decodes one whole request from text. Errors say what is wrong.
// *complete is false (and the status ok) when more bytes are needed.
Status DecodeResidentRequest(std::string_view text, ResidentRequest* out, bool* complete);

// "DEV:INO" of the open file fd, "" when fstat fails.
std::string FileIdOf(int fd);

}  // namespace causegate::hook
