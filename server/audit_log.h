// The daemon's audit log: one JSON line per hook or judge request that
// reached the gate (verdicts and fail-opens). Field list: server/API.md
// ("Audit log"). The final message and prompt are left out unless the
// owner asks for them (--log-text): they can hold anything the user pasted.
//
// Each record is written whole, with one write (server/record_file.h), and
// a line torn by a crash or a full disk is cut off when the log is opened,
// so every line of the file parses. Rotated here rather than through
// spdlog's rotating sink, whose buffered stream writes a line longer than
// its buffer in pieces (a --log-text line easily is).
// Thread-safe.
// Tests: tests/unit/server/audit_log_test.cc, record_file_test.cc.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "evidence/status.h"
#include "server/record_file.h"

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
  // old files (path.1.jsonl ...). A torn last line is removed first, with a
  // warning in the log. Errors: the file cannot be created or repaired.
  static Status Open(const std::string& path, std::size_t max_bytes, int max_files, IncludeText text,
                     std::unique_ptr<AuditLog>* out);
  ~AuditLog();

  // A record that cannot be written is logged as an error and dropped;
  // the request it describes is still answered.
  void Write(const AuditRecord& record);
  // Records are on disk when Write returns; kept for callers that ask.
  void Flush() {}

 private:
  AuditLog(std::string path, std::size_t max_bytes, int max_files, IncludeText text);
  // Renames path -> path.1.jsonl -> ... and starts a new file. REQUIRES: mu_.
  Status Rotate();

  const std::string path_;
  const std::size_t max_bytes_;
  const int max_files_;
  const IncludeText text_;
  std::mutex mu_;
  RecordFile file_;  // guarded by mu_
};

// The name of the index-th old file of a log: "audit.jsonl", 2 ->
// "audit.2.jsonl"; a name without extension gets ".2" at its end. 0: path.
std::string RotatedName(const std::string& path, int index);

}  // namespace causegate::server
