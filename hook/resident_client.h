// The client side of the resident gate (hook/resident_wire.h): one request
// on the per-user Unix socket, every wait bounded, so that a daemon that is
// missing, stopped, slow or someone else's never holds up a stop: the
// caller then judges locally. No logging or JSON library: the small client
// binary (cli/hook_client_main.cc) is built from this file too.
// Tests: tests/e2e/resident_gate.py.
#pragma once

#include <string>

#include "hook/resident_wire.h"

namespace causegate::hook {

enum class ResidentReply {
  kAnswer,    // out/err hold the hook's stdout and stderr
  kStale,     // the daemon's fingerprint differs: it exits
  kDeclined,  // the daemon will not judge this one (why)
  kStatus,    // op status: why holds the status line
  kNoDaemon,  // no socket, or nobody listening on it
  kFailed,    // anything else: a timeout, a foreign peer, a broken answer (why)
};

struct ResidentResult {
  ResidentReply reply = ResidentReply::kFailed;
  std::string out;
  std::string err;
  std::string why;
};

struct ResidentBounds {
  int connect_ms = 100;  // connecting and sending the request
  int ack_ms = 250;      // from the request sent to "judging"
  int answer_ms = 3000;  // from "judging" to the whole answer
};

// The bounds for a hook request: the answer may take the transcript wait
// (CAUSEGATE_TRANSCRIPT_WAIT_MS, else the longest default, 2 s) and more.
ResidentBounds ResidentHookBounds();

// Sends request to the daemon at socket_path and reads its answer. The
// daemon must run as this user (SO_PEERCRED), else kFailed.
ResidentResult AskResident(const std::string& socket_path, const ResidentRequest& request,
                           const ResidentBounds& bounds);

}  // namespace causegate::hook
