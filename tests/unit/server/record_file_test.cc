#include "server/record_file.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "unit/evidence/test_util.h"

namespace causegate::server {
namespace {

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("KeepThroughLastNewline: up to the last complete line", "[server][record_file]") {
  CHECK(KeepThroughLastNewline(0, "") == 0);
  CHECK(KeepThroughLastNewline(10, "ab\n") == 10);
  CHECK(KeepThroughLastNewline(10, "a\n{\"cut") == 5);
  CHECK(KeepThroughLastNewline(10, "no newline") == 0);
  CHECK(KeepThroughLastNewline(100, "no newline") == 90);
}

TEST_CASE("record file: a torn last line is cut off at open, whole lines stay", "[server][record_file]") {
  evidence::testing::TempDir dir;
  const std::string path = dir.WriteRaw("log.jsonl", "{\"a\":1}\n{\"b\":2}\n{\"c\":");
  RecordFile file;
  std::size_t dropped = 99;
  REQUIRE(file.Open(path, &dropped).ok());
  CHECK(dropped == 5);
  CHECK(file.size() == 16);
  REQUIRE(file.Append("{\"d\":4}\n").ok());
  CHECK(ReadAll(path) == "{\"a\":1}\n{\"b\":2}\n{\"d\":4}\n");
}

TEST_CASE("record file: a torn line longer than the tail block, and one with no line before it",
          "[server][record_file]") {
  evidence::testing::TempDir dir;
  const std::string whole = "{\"whole\":true}\n";
  // 200 KiB without a newline: the repair walks back over several blocks.
  const std::string path = dir.WriteRaw("long.jsonl", whole + "{\"text\":\"" + std::string(200u << 10, 'x'));
  RecordFile file;
  std::size_t dropped = 0;
  REQUIRE(file.Open(path, &dropped).ok());
  CHECK(dropped == (200u << 10) + 9);
  CHECK(ReadAll(path) == whole);

  const std::string only = dir.WriteRaw("only.jsonl", std::string(100u << 10, 'y'));
  RecordFile other;
  REQUIRE(other.Open(only, &dropped).ok());
  CHECK(dropped == 100u << 10);
  CHECK(std::filesystem::file_size(only) == 0);
}

TEST_CASE("record file: a file that ends in a newline is left as it is", "[server][record_file]") {
  evidence::testing::TempDir dir;
  const std::string path = dir.WriteRaw("ok.jsonl", "{\"a\":1}\n");
  RecordFile file;
  std::size_t dropped = 1;
  REQUIRE(file.Open(path, &dropped).ok());
  CHECK(dropped == 0);
  CHECK(file.size() == 8);
  CHECK(ReadAll(path) == "{\"a\":1}\n");
  RecordFile fresh;
  REQUIRE(fresh.Open(dir.File("new.jsonl"), &dropped).ok());
  CHECK(dropped == 0);
  CHECK(fresh.size() == 0);
}

}  // namespace
}  // namespace causegate::server
