// Each bound of evidence/limits.h that evidence/ enforces, exactly at the
// limit (kept whole) and one byte or item past it (the documented outcome).
// Bounds already tested at and past elsewhere are listed in RELIABILITY.md
// ("Limits") rather than repeated here.
#include "evidence/limits.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "evidence/gemini_transcript.h"
#include "evidence/line_reader.h"
#include "evidence/transcript.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::json;
using testing::Prompt;
using testing::Result;
using testing::TempDir;
using testing::Text;
using testing::ToolUse;

LastTurn MustReadLast(const std::string& path) {
  LastTurn last;
  const Status s = ReadLastTurn(path, SessionKind::kMain, &last);
  INFO(s.message());
  REQUIRE(s.ok());
  return last;
}

// The lines a forward reader with the default bounds yields.
std::vector<RawLine> ReadAll(const std::string& path, std::vector<std::string>* texts) {
  std::unique_ptr<TranscriptFile> file;
  REQUIRE(TranscriptFile::Open(path, &file).ok());
  ForwardLineReader reader(std::move(file));
  std::vector<RawLine> lines;
  RawLine line;
  while (reader.Next(&line)) {
    texts->emplace_back(line.text);
    lines.push_back(line);
  }
  REQUIRE(reader.status().ok());
  return lines;
}

TEST_CASE("kMaxTranscriptLineBytes: a line at the limit is read, one byte more is skipped", "[limits]") {
  TempDir dir;
  for (const std::size_t size : {limits::kMaxTranscriptLineBytes, limits::kMaxTranscriptLineBytes + 1}) {
    INFO("line of " << size << " bytes");
    const std::string path = dir.WriteRaw("t.jsonl", "first\n" + std::string(size, 'z') + "\nlast\n");
    std::vector<std::string> texts;
    const std::vector<RawLine> lines = ReadAll(path, &texts);
    REQUIRE(lines.size() == 3);
    const bool within = size <= limits::kMaxTranscriptLineBytes;
    CHECK(lines[1].too_long == !within);
    CHECK(texts[1].size() == (within ? size : 0));
    CHECK(texts[2] == "last");
  }
}

TEST_CASE("kMaxMessageBytes: a final message at the limit is whole, past it a prefix", "[limits]") {
  TempDir dir;
  for (const std::size_t size : {limits::kMaxMessageBytes, limits::kMaxMessageBytes + 1}) {
    INFO("message of " << size << " bytes");
    const std::string message(size, 'm');
    const std::string path = dir.Write("t.jsonl", {Prompt("q"), Text("msg_1", message)});
    const LastTurn last = MustReadLast(path);
    CHECK(last.turn.final_message.size() == limits::kMaxMessageBytes);
    CHECK(message.compare(0, last.turn.final_message.size(), last.turn.final_message) == 0);
  }
}

TEST_CASE("kMaxToolOutputBytes: an output at the limit is kept whole, past it the head", "[limits]") {
  TempDir dir;
  for (const std::size_t size : {limits::kMaxToolOutputBytes, limits::kMaxToolOutputBytes + 1}) {
    INFO("output of " << size << " bytes");
    const std::string output = "head" + std::string(size - 4, 'o');
    const std::string path =
        dir.Write("t.jsonl", {Prompt("q"), ToolUse("m1", "toolu_1", "Bash", {{"command", "cat big"}}),
                              Result("toolu_1", output), Text("m2", "done")});
    const LastTurn last = MustReadLast(path);
    REQUIRE(last.turn.tool_calls.size() == 1);
    const std::string& kept = last.turn.tool_calls[0].output;
    CHECK(kept.size() == limits::kMaxToolOutputBytes);
    CHECK(kept.rfind("head", 0) == 0);
  }
}

TEST_CASE("kMaxToolCallsPerTurn: a turn at the limit keeps every call, one more drops the oldest", "[limits]") {
  TempDir dir;
  for (const std::size_t calls : {limits::kMaxToolCallsPerTurn, limits::kMaxToolCallsPerTurn + 1}) {
    INFO(calls << " calls");
    std::vector<std::string> lines = {Prompt("q")};
    for (std::size_t i = 0; i < calls; ++i) {
      const std::string id = "toolu_" + std::to_string(i);
      lines.push_back(ToolUse("m" + std::to_string(i), id, "Bash", {{"command", "c"}}));
      lines.push_back(Result(id, "out " + std::to_string(i)));
    }
    lines.push_back(Text("m_last", "done"));
    const LastTurn last = MustReadLast(dir.Write("t.jsonl", lines));
    REQUIRE(last.turn.tool_calls.size() == limits::kMaxToolCallsPerTurn);
    CHECK(last.turn.tool_calls.front().output == "out " + std::to_string(calls - limits::kMaxToolCallsPerTurn));
    CHECK(last.turn.tool_calls.back().output == "out " + std::to_string(calls - 1));
  }
}

TEST_CASE("kMaxTurnBytes: a turn within it is kept whole, past it its newest records", "[limits]") {
  TempDir dir;
  // Calls of 8 MiB of output each (kMaxToolOutputBytes): 7 fit in 64 MiB,
  // 9 do not, and then the oldest are the ones not kept.
  const std::string output(limits::kMaxToolOutputBytes, 'o');
  for (const std::size_t calls : {std::size_t{7}, std::size_t{9}}) {
    INFO(calls << " calls of 8 MiB");
    std::vector<std::string> lines = {Prompt("why?")};
    for (std::size_t i = 0; i < calls; ++i) {
      const std::string id = "toolu_" + std::to_string(i);
      lines.push_back(ToolUse("m" + std::to_string(i), id, "Bash", {{"command", "cat part" + std::to_string(i)}}));
      lines.push_back(Result(id, output));
    }
    lines.push_back(Text("m_last", "The root cause is X."));
    const LastTurn last = MustReadLast(dir.Write("t.jsonl", lines));
    CHECK(last.turn.prompt == "why?");
    CHECK(last.turn.final_message == "The root cause is X.");
    std::size_t kept = 0;
    for (const ToolCall& call : last.turn.tool_calls) kept += call.output.size();
    CHECK(kept <= limits::kMaxTurnBytes);
    const std::size_t fit = limits::kMaxTurnBytes / limits::kMaxToolOutputBytes - 1;
    REQUIRE(last.turn.tool_calls.size() == std::min(calls, fit));
    CHECK(last.turn.tool_calls.back().command == "cat part" + std::to_string(calls - 1));
    CHECK(last.turn.tool_calls.back().output.size() == output.size());
  }
}

TEST_CASE("kMaxScanBackBytes: a turn whose prompt is at the bound is read, one byte further is not", "[limits]") {
  TempDir dir;
  // prompt line, a hole (one over-long line of NUL bytes, skipped), the
  // final message: a sparse file of exactly the bound, then one byte more.
  const std::string prompt = Prompt("why?") + "\n";
  const std::string tail = "\n" + Text("m1", "The root cause is X.") + "\n";
  for (const std::size_t size : {limits::kMaxScanBackBytes, limits::kMaxScanBackBytes + 1}) {
    INFO("file of " << size << " bytes");
    const std::string path = dir.File("sparse.jsonl");
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << prompt;
      out.seekp(static_cast<std::streamoff>(size - tail.size()));
      out << tail;
    }
    LastTurn last;
    const Status read = ReadLastTurn(path, SessionKind::kMain, &last);
    if (size <= limits::kMaxScanBackBytes) {
      INFO(read.message());
      REQUIRE(read.ok());
      CHECK(last.turn.prompt == "why?");
      CHECK(last.turn.final_message == "The root cause is X.");
    } else {
      CHECK_FALSE(read.ok());
      CHECK(read.message().find(std::to_string(limits::kMaxScanBackBytes) + " bytes from its end") !=
            std::string::npos);
    }
  }
}

TEST_CASE("kMaxChatFileBytes: a Gemini chat file at the limit is read, one byte more is refused", "[limits]") {
  TempDir dir;
  const std::string doc =
      json{{"messages",
            json::array({{{"id", "u1"}, {"type", "user"}, {"content", "why?"}},
                         {{"id", "g1"}, {"type", "gemini"}, {"content", "an answer"},
                          {"toolCalls", json::array()}, {"thoughts", json::array()}}})}}
          .dump();
  // Trailing white space is valid JSON, so the size alone decides.
  const std::string at = doc + std::string(limits::kMaxChatFileBytes - doc.size(), ' ');
  LastTurn last;
  const Status read = ReadGeminiLastTurn(dir.WriteRaw("at.json", at), ChatReadOptions(), &last);
  INFO(read.message());
  REQUIRE(read.ok());
  CHECK(last.turn.final_message == "an answer");

  const Status past = ReadGeminiLastTurn(dir.WriteRaw("past.json", at + " "), ChatReadOptions(), &last);
  CHECK_FALSE(past.ok());
  CHECK(past.message().find("chat file larger than " + std::to_string(limits::kMaxChatFileBytes)) !=
        std::string::npos);
}

}  // namespace
}  // namespace causegate::evidence
