#include "server/audit_log.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "unit/evidence/test_util.h"

namespace causegate::server {
namespace {

using nlohmann::json;

AuditRecord Sample() {
  AuditRecord r;
  r.route = "/hook";
  r.session = "sess-1";
  r.agent = "claude-code";
  r.event = "Stop";
  r.decision = "block";
  r.transcript = "/home/u/.claude/projects/p/sess-1.jsonl";
  r.claims = {{"en.claim.because", "no-citation"}};
  r.block_number = 1;
  r.read_ms = 0.1234;
  r.judge_ms = 0.5;
  r.total_ms = 0.7;
  r.prompt = "why did it fail?";
  r.final_message = "It failed because the disk is full.";
  return r;
}

TEST_CASE("audit line: fields, and no message text by default", "[server][audit]") {
  const auto t = std::chrono::system_clock::time_point(std::chrono::milliseconds(1767225600123));
  const json line = json::parse(AuditLine(Sample(), t, IncludeText::kNo));
  CHECK(line["time"] == "2026-01-01T00:00:00.123Z");
  CHECK(line["route"] == "/hook");
  CHECK(line["session"] == "sess-1");
  CHECK(line["agent"] == "claude-code");
  CHECK(line["event"] == "Stop");
  CHECK(line["decision"] == "block");
  CHECK(line["transcript"] == "/home/u/.claude/projects/p/sess-1.jsonl");
  CHECK(line["claims"] == json::parse(R"([{"rule": "en.claim.because", "finding": "no-citation"}])"));
  CHECK(line["block_number"] == 1);
  CHECK(line["timings_ms"]["read"] == 0.123);
  CHECK(line["timings_ms"]["judge"] == 0.5);
  CHECK(line["timings_ms"]["total"] == 0.7);
  CHECK_FALSE(line.contains("prompt"));
  CHECK_FALSE(line.contains("final_message"));
  CHECK_FALSE(line.contains("fail_open_reason"));

  const json with_text = json::parse(AuditLine(Sample(), t, IncludeText::kYes));
  CHECK(with_text["prompt"] == "why did it fail?");
  CHECK(with_text["final_message"] == "It failed because the disk is full.");
}

TEST_CASE("audit log: one line per record, on disk at once", "[server][audit]") {
  evidence::testing::TempDir dir;
  const std::string path = dir.File("audit.jsonl");
  std::unique_ptr<AuditLog> log;
  REQUIRE(AuditLog::Open(path, 1 << 20, 2, IncludeText::kNo, &log).ok());
  log->Write(Sample());
  AuditRecord fail = Sample();
  fail.decision = "fail-open";
  fail.fail_open_reason = "transcript path: \"/etc/passwd\" is outside the allowed roots";
  log->Write(fail);
  std::ifstream in(path);
  std::string first;
  std::string second;
  REQUIRE(std::getline(in, first));
  REQUIRE(std::getline(in, second));
  CHECK(json::parse(first)["decision"] == "block");
  CHECK(json::parse(second)["fail_open_reason"] == fail.fail_open_reason);
  std::string more;
  CHECK_FALSE(std::getline(in, more));

  std::unique_ptr<AuditLog> bad;
  const std::string not_a_folder = dir.WriteRaw("file.txt", "x");
  CHECK_FALSE(AuditLog::Open(not_a_folder + "/audit.jsonl", 1 << 20, 2, IncludeText::kNo, &bad).ok());
}

TEST_CASE("audit log: rotates at the size limit, keeping N old files", "[server][audit]") {
  evidence::testing::TempDir dir;
  std::unique_ptr<AuditLog> log;
  REQUIRE(AuditLog::Open(dir.File("audit.jsonl"), 4096, 2, IncludeText::kNo, &log).ok());
  for (int i = 0; i < 100; ++i) log->Write(Sample());  // ~300 bytes each
  log->Flush();
  namespace fs = std::filesystem;
  CHECK(fs::file_size(dir.File("audit.jsonl")) <= 4096);
  CHECK(fs::exists(dir.File("audit.1.jsonl")));
  CHECK(fs::exists(dir.File("audit.2.jsonl")));
  CHECK_FALSE(fs::exists(dir.File("audit.3.jsonl")));
}

TEST_CASE("audit log: a line cut by a crash is removed at open; the next record is whole", "[server][audit]") {
  evidence::testing::TempDir dir;
  const std::string path = dir.File("audit.jsonl");
  const std::string whole = AuditLine(Sample(), std::chrono::system_clock::now(), IncludeText::kYes) + "\n";
  const std::string cut = whole.substr(0, whole.size() / 2);  // kill -9 in mid-write
  dir.WriteRaw("audit.jsonl", whole + cut);
  std::unique_ptr<AuditLog> log;
  REQUIRE(AuditLog::Open(path, 1 << 20, 2, IncludeText::kYes, &log).ok());
  log->Write(Sample());
  std::ifstream in(path);
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines) CHECK(json::parse(line)["decision"] == "block");
  CHECK(lines == 2);
}

TEST_CASE("audit log: a --log-text record of 1 MiB is one write, rotation keeps whole lines", "[server][audit]") {
  evidence::testing::TempDir dir;
  const std::string path = dir.File("audit.jsonl");
  std::unique_ptr<AuditLog> log;
  REQUIRE(AuditLog::Open(path, 4u << 20, 2, IncludeText::kYes, &log).ok());
  AuditRecord big = Sample();
  big.final_message = std::string(1u << 20, 'm');
  for (int i = 0; i < 10; ++i) log->Write(big);
  namespace fs = std::filesystem;
  for (int i = 0; i <= 2; ++i) {
    const std::string name = RotatedName(path, i);
    REQUIRE(fs::exists(name));
    CHECK(fs::file_size(name) <= (4u << 20));
    std::ifstream in(name);
    for (std::string line; std::getline(in, line);) {
      CHECK(json::parse(line)["final_message"].get<std::string>().size() == (1u << 20));
    }
  }
}

TEST_CASE("RotatedName: the index before the extension", "[server][audit]") {
  CHECK(RotatedName("/var/log/audit.jsonl", 0) == "/var/log/audit.jsonl");
  CHECK(RotatedName("/var/log/audit.jsonl", 2) == "/var/log/audit.2.jsonl");
  CHECK(RotatedName("/var/log.d/audit", 1) == "/var/log.d/audit.1");
  CHECK(RotatedName("/var/log/.audit", 1) == "/var/log/.audit.1");
  CHECK(RotatedName("audit.", 1) == "audit..1");
}

}  // namespace
}  // namespace causegate::server
