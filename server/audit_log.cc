#include "server/audit_log.h"

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/spdlog.h>

#include <ctime>

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

AuditLog::AuditLog(std::shared_ptr<spdlog::logger> logger, IncludeText text) : logger_(std::move(logger)), text_(text) {}

AuditLog::~AuditLog() { Flush(); }

Status AuditLog::Open(const std::string& path, std::size_t max_bytes, int max_files, IncludeText text,
                      std::unique_ptr<AuditLog>* out) {
  try {
    auto sink = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(path, max_bytes,
                                                                       static_cast<std::size_t>(max_files));
    auto logger = std::make_shared<spdlog::logger>("causegate-audit", std::move(sink));
    logger->set_pattern("%v");
    logger->set_level(spdlog::level::info);
    // One write per line: the log is current when a request's answer is sent.
    logger->flush_on(spdlog::level::info);
    out->reset(new AuditLog(std::move(logger), text));
    return Status::Ok();
  } catch (const spdlog::spdlog_ex& e) {
    return Status::Error("audit log: " + path + ": " + e.what());
  }
}

void AuditLog::Write(const AuditRecord& record) {
  const std::string line = AuditLine(record, std::chrono::system_clock::now(), text_);
  logger_->info(line);
}

void AuditLog::Flush() { logger_->flush(); }

}  // namespace causegate::server
