// The daemon's limits: every bounded config key accepted at each end of its
// range and refused one past it, and the request body bounds of
// judge_request.h at and past evidence/limits.h. The HTTP-level outcome
// past max_body_bytes / max_header_bytes (413 / 431) is in
// tests/e2e/serve_test.py.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "evidence/limits.h"
#include "server/config.h"
#include "server/judge_request.h"
#include "unit/evidence/test_util.h"

namespace causegate::server {
namespace {

struct Range {
  const char* key;
  std::int64_t min;
  std::int64_t max;
};

// The ranges server/API.md ("Configuration") documents.
constexpr Range kRanges[] = {
    {"max_body_bytes", 1024, std::int64_t{1} << 30},
    {"max_header_bytes", 1024, std::int64_t{1} << 20},
    {"read_timeout_ms", 1, 600000},
    {"write_timeout_ms", 1, 600000},
    {"keep_alive_timeout_s", 1, 3600},
    {"keep_alive_max_requests", 1, std::int64_t{1} << 30},
    {"threads", 1, 1024},
    {"max_queued_connections", 1, 100000},
    {"max_connections", 16, 100000},
    {"audit_log_max_bytes", 4096, std::int64_t{1} << 40},
    {"audit_log_files", 1, 1000},
    {"reload_poll_ms", 0, 3600000},
    {"max_blocks", 0, 100},
};

Status Parse(const char* key, std::int64_t value) {
  ServerConfig c;
  return ParseServerConfig("{\"" + std::string(key) + "\": " + std::to_string(value) + "}", "c.json", &c);
}

TEST_CASE("config limits: each bounded key at both ends of its range and one past", "[server][config][limits]") {
  for (const Range& r : kRanges) {
    INFO(r.key);
    CHECK(Parse(r.key, r.min).ok());
    CHECK(Parse(r.key, r.max).ok());
    const std::string refused = "c.json: \"" + std::string(r.key) + "\": must be between " + std::to_string(r.min) +
                                " and " + std::to_string(r.max);
    CHECK(Parse(r.key, r.min - 1).message() == refused);
    CHECK(Parse(r.key, r.max + 1).message() == refused);
  }
}

TEST_CASE("config limits: the value set is the value read", "[server][config][limits]") {
  ServerConfig c;
  REQUIRE(ParseServerConfig(R"({"max_body_bytes": 1073741824, "max_header_bytes": 1024})", "c.json", &c).ok());
  CHECK(c.max_body_bytes == (std::size_t{1} << 30));
  CHECK(c.max_header_bytes == 1024);
}

TEST_CASE("config limits: the defaults are the documented ones", "[server][config][limits]") {
  const ServerConfig c;
  CHECK(c.max_body_bytes == limits::kMaxHookInputBytes);
  CHECK(c.max_body_bytes == 8388608);
  CHECK(c.max_header_bytes == 16384);
  CHECK(c.read_timeout_ms == 5000);
  CHECK(c.write_timeout_ms == 5000);
  CHECK(c.keep_alive_timeout_s == 5);
  CHECK(c.threads == 16);
  CHECK(c.max_queued_connections == 64);
  CHECK(c.max_connections == 1024);
}

TEST_CASE("config file: kMaxConfigFileBytes accepted, one byte more refused", "[server][config][limits]") {
  evidence::testing::TempDir dir;
  const std::string at = R"({"threads": 3})" + std::string(kMaxConfigFileBytes - 14, ' ');
  REQUIRE(at.size() == kMaxConfigFileBytes);
  ServerConfig c;
  const Status read = LoadServerConfig(dir.WriteRaw("at.json", at), &c);
  INFO(read.message());
  CHECK(read.ok());
  CHECK(c.threads == 3);
  const std::string past = dir.WriteRaw("past.json", at + " ");
  CHECK(LoadServerConfig(past, &c).message() ==
        past + ": larger than " + std::to_string(kMaxConfigFileBytes) + " bytes");
}

// A judge body of exactly size bytes: a valid request padded with white
// space, which JSON ignores, so the size alone decides.
std::string BodyOfSize(std::size_t size) {
  const std::string body = R"({"final_message": "It works."})";
  REQUIRE(size >= body.size());
  return body + std::string(size - body.size(), ' ');
}

TEST_CASE("judge body: kMaxHookInputBytes accepted, one byte more refused", "[server][judge][limits]") {
  JudgeRequest r;
  const Status at = ParseJudgeRequest(BodyOfSize(limits::kMaxHookInputBytes), &r);
  INFO(at.message());
  CHECK(at.ok());
  CHECK(r.turn.final_message == "It works.");
  const Status past = ParseJudgeRequest(BodyOfSize(limits::kMaxHookInputBytes + 1), &r);
  CHECK(past.message() == "body: larger than " + std::to_string(limits::kMaxHookInputBytes) + " bytes");
}

TEST_CASE("judge body: nesting at kMaxJsonDepth accepted, one level more refused", "[server][judge][limits]") {
  // The enclosing object is the first level.
  const auto nested = [](int depth) {
    const int arrays = depth - 1;
    return R"({"final_message": "It works.", "pad": )" + std::string(arrays, '[') + std::string(arrays, ']') + "}";
  };
  JudgeRequest r;
  const Status at = ParseJudgeRequest(nested(limits::kMaxJsonDepth), &r);
  INFO(at.message());
  CHECK(at.ok());
  const Status past = ParseJudgeRequest(nested(limits::kMaxJsonDepth + 1), &r);
  CHECK(past.message() == "body: JSON nested deeper than " + std::to_string(limits::kMaxJsonDepth));
}

}  // namespace
}  // namespace causegate::server
