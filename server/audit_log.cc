#include "server/audit_log.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <ctime>
#include <filesystem>

#include <nlohmann/json.hpp>

namespace causegate::server {
namespace {

std::string UtcTime(std::chrono::system_clock::time_point time) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms % 1000));
  return buf;
}

double Round3(double ms) { return static_cast<double>(static_cast<long long>(ms * 1000 + 0.5)) / 1000; }

}  // namespace

std::string AuditLine(const AuditRecord& r, std::chrono::system_clock::time_point time, IncludeText text) {
  using nlohmann::json;
  json findings = json::array();
  for (const auto& [rule, finding] : r.claims) findings.push_back({{"rule", rule}, {"finding", finding}});
  json line = {{"time", UtcTime(time)},
               {"route", r.route},
               {"session", r.session},
               {"agent", r.agent},
               {"event", r.event},
               {"decision", r.decision},
               {"claims", std::move(findings)},
               {"timings_ms", {{"read", Round3(r.read_ms)}, {"judge", Round3(r.judge_ms)}, {"total", Round3(r.total_ms)}}}};
  if (!r.transcript.empty()) line["transcript"] = r.transcript;
  if (r.block_number > 0) line["block_number"] = r.block_number;
  if (!r.fail_open_reason.empty()) line["fail_open_reason"] = r.fail_open_reason;
  if (text == IncludeText::kYes) {
    line["prompt"] = r.prompt;
    line["final_message"] = r.final_message;
  }
  return line.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string RotatedName(const std::string& path, int index) {
  if (index == 0) return path;
  const std::size_t slash = path.rfind('/');
  const std::size_t name_at = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t dot = path.rfind('.');
  // A leading dot (".audit") or a trailing one is not an extension.
  const bool has_ext = dot != std::string::npos && dot > name_at && dot + 1 < path.size();
  const std::string suffix = "." + std::to_string(index);
  return has_ext ? path.substr(0, dot) + suffix + path.substr(dot) : path + suffix;
}

AuditLog::AuditLog(std::string path, std::size_t max_bytes, int max_files, IncludeText text)
    : path_(std::move(path)), max_bytes_(max_bytes), max_files_(max_files), text_(text) {}

AuditLog::~AuditLog() = default;

Status AuditLog::Open(const std::string& path, std::size_t max_bytes, int max_files, IncludeText text,
                      std::unique_ptr<AuditLog>* out) {
  std::unique_ptr<AuditLog> log(new AuditLog(path, max_bytes, max_files, text));
  std::size_t dropped = 0;
  if (Status s = log->file_.Open(path, &dropped); !s.ok()) return Status::Error("audit log: " + s.message());
  if (dropped > 0) {
    spdlog::warn("audit log: {}: removed a torn last line ({} bytes, no newline: a write cut by a crash or a "
                 "full disk)",
                 path, dropped);
  }
  *out = std::move(log);
  return Status::Ok();
}

Status AuditLog::Rotate() {
  file_.Close();
  std::error_code ec;
  for (int i = max_files_ - 1; i >= 0; --i) {
    const std::string from = RotatedName(path_, i);
    if (!std::filesystem::exists(from, ec)) continue;
    std::filesystem::rename(from, RotatedName(path_, i + 1), ec);
    if (ec) break;
  }
  std::size_t dropped = 0;
  Status reopened = file_.Open(path_, &dropped);
  if (ec && reopened.ok()) return Status::Error("rotating " + path_ + ": " + ec.message());
  return reopened;
}

void AuditLog::Write(const AuditRecord& record) {
  const std::string line = AuditLine(record, std::chrono::system_clock::now(), text_) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  Status s;
  if (file_.size() > 0 && file_.size() + line.size() > max_bytes_) s = Rotate();
  if (s.ok()) s = file_.Append(line);
  if (!s.ok()) spdlog::error("audit log: record dropped: {}", s.message());
}

}  // namespace causegate::server
