// The daemon's own process figures for /metrics (process_cpu_seconds_total,
// process_resident_memory_bytes, ...), read from Linux's /proc the way the
// Prometheus client libraries read them: /proc/self/stat (utime, stime,
// starttime, vsize), /proc/self/statm (resident pages), /proc/stat (btime),
// the entries of /proc/self/fd, and the RLIMIT_NOFILE soft limit.
// proc_root is "/proc" in the daemon and a folder of fake files in tests.
// A figure that cannot be read stays negative (Metrics leaves it out); never
// throws. Tests: tests/unit/server/metrics_test.cc.
#pragma once

#include <string>

#include "server/metrics.h"

namespace causegate::server {

ProcessSample ReadProcessSample(const std::string& proc_root = "/proc");

}  // namespace causegate::server
