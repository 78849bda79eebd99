// The line cache, through the transcript reader: with it on, every read
// gives the turn that reading with it off gives, whatever happened to the
// file since the last read (lines appended, the file rewritten in place
// with the same size and time, truncated, replaced under its name, lines
// put before the turn so its line numbers move), and only lines not read
// before are parsed again. Its bytes stay within the bound, and threads
// reading changing files at once each get their file's turn.
#include "evidence/line_cache.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "evidence/transcript.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::Prompt;
using testing::Result;
using testing::TempDir;
using testing::Text;
using testing::ToolUse;

// Everything the reader gives of a turn, as text to compare.
std::string Describe(const Turn& turn) {
  std::ostringstream out;
  out << "prompt " << turn.prompt_line << ": " << turn.prompt << "\nfinal " << turn.final_line << ": "
      << turn.final_message << "\ntruncated " << turn.truncated << "\n";
  for (const ToolCall& c : turn.tool_calls) {
    out << "call " << c.line << " " << c.id << " " << c.name << " " << c.command << " " << c.input << " error "
        << c.is_error << " result " << c.has_result << ":\n" << c.output << "\n";
  }
  for (const std::string& f : turn.stop_feedback) out << "feedback: " << f << "\n";
  for (const std::string& n : turn.narration) out << "narration: " << n << "\n";
  out << "context " << turn.context.session_id << " " << turn.context.agent_version << " " << turn.context.model
      << " " << turn.context.started_at << " " << turn.context.cwd << "\n";
  return out.str();
}

std::string ReadDescribed(const std::string& path) {
  LastTurn last;
  const Status s = ReadLastTurn(path, SessionKind::kMain, &last);
  INFO(s.message());
  REQUIRE(s.ok());
  std::string text = Describe(last.turn);
  PastTurn past;
  while (last.history->LoadOlder(&past)) {
    text += "earlier: " + past.prompt + "\n";
    for (const ToolCall& c : past.tool_calls) text += c.id + " " + std::to_string(c.line) + ": " + c.output + "\n";
  }
  return text;
}

// The turn read with the cache on, checked against a read with it off.
std::string ReadChecked(const std::string& path, std::size_t bound = 1 << 20) {
  EnableLineCache(0);
  const std::string uncached = ReadDescribed(path);
  EnableLineCache(bound);
  const std::string cached = ReadDescribed(path);
  CHECK(cached == uncached);
  return cached;
}

std::string Output(int variant, int lines = 30) {
  std::string out;
  for (int i = 0; i < lines; ++i) {
    out += "Mar 03 02:" + std::to_string(10 + i % 50) + " worker-3 run-export[48213]: batch " + std::to_string(i) +
           " rss=" + std::to_string(9000 + variant * 100 + i) + " MiB\n";
  }
  return out;
}

std::vector<std::string> Session(int variant, int calls) {
  std::vector<std::string> lines = {Prompt("why did the nightly export die?")};
  for (int i = 0; i < calls; ++i) {
    const std::string id = "toolu_" + std::to_string(i);
    lines.push_back(ToolUse("m" + std::to_string(i), id, "Bash", {{"command", "journalctl -u etl | tail -30"}}));
    lines.push_back(Result(id, Output(variant + i)));
  }
  lines.push_back(Text("mf", "It was OOM-killed: `rss=" + std::to_string(9000 + variant * 100) + " MiB`."));
  return lines;
}

void SetMtime(const std::string& path, std::filesystem::file_time_type when) {
  std::filesystem::last_write_time(path, when);
}

TEST_CASE("line cache: a second read of the same file parses nothing again") {
  TempDir dir;
  const std::string path = dir.Write("s.jsonl", Session(0, 4));
  EnableLineCache(0);
  const std::string uncached = ReadDescribed(path);
  EnableLineCache(1 << 20);
  CHECK(ReadDescribed(path) == uncached);
  const ContentCacheStats before = GetLineCacheStats();
  CHECK(ReadDescribed(path) == uncached);
  const ContentCacheStats after = GetLineCacheStats();
  CHECK(after.misses == before.misses);  // every long line was kept by the first cached read
  CHECK(after.hits - before.hits == 10);  // the prompt, 4 calls and 4 results, the final message
  EnableLineCache(0);
}

TEST_CASE("line cache: lines appended since the last read are the only ones parsed") {
  TempDir dir;
  std::vector<std::string> lines = Session(0, 4);
  const std::string path = dir.Write("s.jsonl", lines);
  ReadChecked(path);
  lines.pop_back();  // the agent went on in the same turn
  lines.push_back(ToolUse("m9", "toolu_9", "Bash", {{"command", "dmesg | tail"}}));
  lines.push_back(Result("toolu_9", Output(9)));
  lines.push_back(Text("mf2", "It was OOM-killed: `rss=9900 MiB`."));
  dir.Write("s.jsonl", lines);
  EnableLineCache(1 << 20);
  const ContentCacheStats before = GetLineCacheStats();
  const std::string text = ReadDescribed(path);
  const ContentCacheStats after = GetLineCacheStats();
  CHECK(after.misses - before.misses == 3);  // the three new lines
  CHECK(text.find("rss=9900 MiB") != std::string::npos);
  CHECK(text == ReadChecked(path));
  EnableLineCache(0);
}

TEST_CASE("line cache: a file rewritten in place with the same size and time reads as rewritten") {
  TempDir dir;
  const std::string path = dir.Write("s.jsonl", Session(1, 3));
  const std::string before = ReadChecked(path);
  const auto mtime = std::filesystem::last_write_time(path);
  struct stat st_before {};
  REQUIRE(stat(path.c_str(), &st_before) == 0);
  // Variant 2 has the same byte count: only digits differ.
  {
    std::FILE* f = std::fopen(path.c_str(), "r+b");  // the same inode, written over
    REQUIRE(f != nullptr);
    std::string text;
    for (const std::string& line : Session(2, 3)) text += line + "\n";
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  SetMtime(path, mtime);
  struct stat st_after {};
  REQUIRE(stat(path.c_str(), &st_after) == 0);
  REQUIRE(st_after.st_size == st_before.st_size);
  REQUIRE(st_after.st_ino == st_before.st_ino);
  const std::string after = ReadChecked(path);
  CHECK(after != before);
  CHECK(after.find("rss=9200 MiB") != std::string::npos);
  CHECK(after.find("rss=9100 MiB") == std::string::npos);
  EnableLineCache(0);
}

TEST_CASE("line cache: truncated, replaced or shifted files read as they are now") {
  TempDir dir;
  std::vector<std::string> lines = Session(3, 5);
  const std::string path = dir.Write("s.jsonl", lines);
  ReadChecked(path);

  SECTION("truncated inside the last line") {
    std::filesystem::resize_file(path, std::filesystem::file_size(path) - 20);
    const std::string text = ReadChecked(path);
    CHECK(text.find("truncated 1") != std::string::npos);
  }
  SECTION("truncated to fewer calls") {
    dir.Write("s.jsonl", std::vector<std::string>(lines.begin(), lines.begin() + 5));
    const std::string text = ReadChecked(path);
    CHECK(text.find("toolu_2 ") == std::string::npos);
    CHECK(text.find("toolu_1 ") != std::string::npos);
  }
  SECTION("replaced under its name (another inode)") {
    const std::string other = dir.Write("other.jsonl", Session(4, 2));
    std::filesystem::rename(other, path);
    const std::string text = ReadChecked(path);
    CHECK(text.find("rss=9400 MiB") != std::string::npos);
    CHECK(text.find("toolu_4 ") == std::string::npos);
  }
  SECTION("an earlier turn put before it: the same lines, other line numbers") {
    std::vector<std::string> shifted = Session(5, 2);
    shifted.insert(shifted.end(), lines.begin(), lines.end());
    dir.Write("s.jsonl", shifted);
    const std::string text = ReadChecked(path);
    INFO(text);
    CHECK(text.find("prompt 7:") != std::string::npos);  // six lines before it: from line 1 to 7
    CHECK(text.find("call 8 toolu_0 ") != std::string::npos);
  }
  EnableLineCache(0);
}

TEST_CASE("line cache: within its bound however many sessions are read") {
  TempDir dir;
  constexpr std::size_t kBound = 64 * 1024;
  for (int s = 0; s < 30; ++s) {
    const std::string path = dir.Write("s" + std::to_string(s) + ".jsonl", Session(s, 4));
    ReadChecked(path, kBound);
    CHECK(GetLineCacheStats().bytes <= kBound);
  }
  CHECK(GetLineCacheStats().entries > 0);
  EnableLineCache(0);
  CHECK(GetLineCacheStats().bytes == 0);
}

TEST_CASE("line cache: threads reading files that change get each file's turn") {
  TempDir dir;
  EnableLineCache(0);
  constexpr int kFiles = 4;
  std::vector<std::string> expected;
  for (int v = 0; v < 2 * kFiles; ++v) {
    const std::string path = dir.Write("ref" + std::to_string(v) + ".jsonl", Session(v, 3));
    expected.push_back(ReadDescribed(path));
  }
  EnableLineCache(96 * 1024);  // less than every variant's lines: eviction while they run
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kFiles; ++t) {
    threads.emplace_back([&, t] {
      const std::string name = "live" + std::to_string(t) + ".jsonl";
      for (int round = 0; round < 40; ++round) {
        const int variant = t + (round % 2) * kFiles;  // the file alternates between two sessions
        const std::string path = dir.Write(name, Session(variant, 3));
        LastTurn last;
        if (!ReadLastTurn(path, SessionKind::kMain, &last).ok()) {
          ++wrong;
          continue;
        }
        std::string text = Describe(last.turn);
        PastTurn past;
        while (last.history->LoadOlder(&past)) {
          text += "earlier: " + past.prompt + "\n";
          for (const ToolCall& c : past.tool_calls) text += c.id + " " + std::to_string(c.line) + ": " + c.output + "\n";
        }
        if (text != expected[static_cast<std::size_t>(variant)]) ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(wrong.load() == 0);
  CHECK(GetLineCacheStats().hits > 0);
  CHECK(GetLineCacheStats().bytes <= 96 * 1024);
  EnableLineCache(0);
}

}  // namespace
}  // namespace causegate::evidence
