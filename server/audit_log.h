// The daemon's audit log: one JSON line per hook or judge request that
// reached the gate (verdicts and fail-opens), written through spdlog's
// rotating file sink. Field list: server/API.md ("Audit log"). The final
// message and prompt are left out unless the owner asks for them
// (--log-text): they can hold anything the user pasted.
// Thread-safe.
// Tests: tests/unit/server/audit_log_test.cc.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "evidence/status.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace causegate::server {

enum class IncludeText { kNo, kYes };

struct AuditRecord {
  std::string route;     // "/hook" or "/v1/judge"
  std::string session;
  std::string agent;
  std::string event;     // "Stop", "SubagentStop", ... ("" for /v1/judge)
  std::string decision;  // rules::ActionName, or "fail-open"
  std::string fail_open_reason;
  std::string transcript;  // the path read ("" for /v1/judge)
  // One (rule id, finding) per claim, supported claims included.
  std::vector<std::pair<std::string, std::string>> claims;
  int block_number = 0;
  double read_ms = 0;
  double judge_ms = 0;
  double total_ms = 0;
  std::string prompt;         // written only with IncludeText::kYes
  std::string final_message;  // written only with IncludeText::kYes
};

// One line of JSON (no newline). time: the record's wall-clock time,
// written in UTC as 2025-01-31T12:00:00.123Z.
std::string AuditLine(const AuditRecord& record, std::chrono::system_clock::time_point time, IncludeText text);

class AuditLog {
 public:
  // Opens (appends to) path, rotating at max_bytes and keeping max_files
  // old files (path.1.jsonl ...). Errors: the file cannot be created.
  static Status Open(const std::string& path, std::size_t max_bytes, int max_files, IncludeText text,
                     std::unique_ptr<AuditLog>* out);
  ~AuditLog();

  void Write(const AuditRecord& record);
  void Flush();

 private:
  AuditLog(std::shared_ptr<spdlog::logger> logger, IncludeText text);
  std::shared_ptr<spdlog::logger> logger_;
  IncludeText text_;
};

}  // namespace causegate::server
