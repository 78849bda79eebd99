// The fold cache: what it returns is FoldForMatch of the text, cached or
// not; repeats hit; its bytes stay within the bound; off, it keeps nothing.
#include "evidence/fold_cache.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "evidence/evidence_index.h"
#include "evidence/text_fold.h"

namespace causegate::evidence {
namespace {

std::string Text(int seed, std::size_t size) {
  // ASCII, white space runs, full-width and zero-width characters: both of
  // FoldForMatch's paths.
  const std::vector<std::string> parts = {"Error: Disk  FULL on /dev/sda1\n", "\xEF\xBC\xA1\xEF\xBC\xA2 ",
                                          "zero\xE2\x80\x8Bwidth ", "ünïcödé ", std::to_string(seed) + " "};
  std::string out;
  for (std::size_t i = 0; out.size() < size; ++i) out += parts[(i + static_cast<std::size_t>(seed)) % parts.size()];
  return out;
}

TEST_CASE("fold cache: the folded text is FoldForMatch's, cached or not") {
  EnableFoldCache(1 << 20);
  const FoldCacheStats before = GetFoldCacheStats();
  for (const std::size_t size : {std::size_t{10}, kMinCachedFoldBytes, std::size_t{20000}}) {
    for (int seed = 0; seed < 3; ++seed) {
      const std::string raw = Text(seed, size);
      INFO("size " << size << " seed " << seed);
      CHECK(FoldOutput(raw) == FoldForMatch(raw));
      CHECK(FoldOutput(raw) == FoldForMatch(raw));  // the second from the cache
    }
  }
  const FoldCacheStats after = GetFoldCacheStats();
  CHECK(after.misses - before.misses == 6);  // the texts of at least kMinCachedFoldBytes, once each
  CHECK(after.hits - before.hits == 6);
  EnableFoldCache(0);
}

TEST_CASE("fold cache: within its bound, least recently used out") {
  EnableFoldCache(0);
  EnableFoldCache(64 * 1024);
  for (int seed = 0; seed < 40; ++seed) {
    const std::string raw = Text(seed, 8000);
    CHECK(FoldOutput(raw) == FoldForMatch(raw));
    CHECK(GetFoldCacheStats().bytes <= 64 * 1024);
  }
  const FoldCacheStats before = GetFoldCacheStats();
  FoldOutput(Text(39, 8000));  // the newest: still there
  CHECK(GetFoldCacheStats().hits == before.hits + 1);
  FoldOutput(Text(0, 8000));   // the oldest: gone
  CHECK(GetFoldCacheStats().misses == before.misses + 1);
  EnableFoldCache(0);
  CHECK(GetFoldCacheStats().bytes == 0);
}

TEST_CASE("fold cache: off, nothing is kept") {
  EnableFoldCache(0);
  const FoldCacheStats before = GetFoldCacheStats();
  const std::string raw = Text(1, 5000);
  CHECK(FoldOutput(raw) == FoldForMatch(raw));
  CHECK(FoldOutput(raw) == FoldForMatch(raw));
  CHECK(GetFoldCacheStats().hits == before.hits);
  CHECK(GetFoldCacheStats().bytes == 0);
}

}  // namespace
}  // namespace causegate::evidence

namespace causegate::evidence {
namespace {

TEST_CASE("fold cache: folded inputs are computed once per key, and the key is all of it") {
  EnableFoldCache(1 << 20);
  int computed = 0;
  auto fold = [&computed](std::string_view text) {
    return [&computed, text] {
      ++computed;
      FoldedInput f;
      f.all = FoldForMatch(text);
      f.supplied = f.all.substr(0, 3);
      f.supplies = true;
      return f;
    };
  };
  const FoldedInput first = FoldInput([] { return std::string("5:4:Bash{\"a\"}echo"); }, fold("ECHO  Disk"));
  const FoldedInput again = FoldInput([] { return std::string("5:4:Bash{\"a\"}echo"); }, fold("ECHO  Disk"));
  CHECK(computed == 1);
  CHECK(again.all == first.all);
  CHECK(again.supplied == first.supplied);
  CHECK(again.supplies);
  FoldInput([] { return std::string("5:4:Bash{\"b\"}echo"); }, fold("other"));  // one byte of the input differs
  CHECK(computed == 2);
  EnableFoldCache(0);
  FoldInput([] { return std::string("5:4:Bash{\"a\"}echo"); }, fold("ECHO  Disk"));
  FoldInput([] { return std::string("5:4:Bash{\"a\"}echo"); }, fold("ECHO  Disk"));
  CHECK(computed == 4);  // off: every time
}

ToolCall Call(const std::string& name, const std::string& input, const std::string& command, const std::string& output) {
  ToolCall call;
  call.id = "toolu_" + std::to_string(output.size());
  call.name = name;
  call.input = input;
  call.command = command;
  call.output = output;
  call.has_result = true;
  return call;
}

// Every fragment's source and place, as text.
std::string Sightings(const Turn& turn, const std::vector<std::string>& fragments) {
  EvidenceIndex index(turn, nullptr);
  std::vector<std::string_view> views(fragments.begin(), fragments.end());
  index.Expect(views);
  std::string out;
  for (const std::string& f : fragments) {
    const Sighting s = index.Locate(f);
    out += f + ": " + SourceName(s.source) + " " + (s.call ? s.call->id : "-") + " " + std::to_string(s.offset) +
           " " + std::to_string(s.supplied_share) + "\n";
  }
  return out;
}

TEST_CASE("fold cache: the citation look-up answers the same with it on, stop after stop") {
  Turn turn;
  turn.prompt = "why did the export die?";
  const std::string log = Text(3, 3000) + "\nMemory cgroup out of memory: Killed process 48213 (run-export)\n";
  turn.tool_calls = {
      Call("Bash", R"({"command":"echo \"Killed process 4812 (python)\""})", "echo \"Killed process 4812 (python)\"",
           "Killed process 4812 (python)\n" + Text(1, 1500)),
      Call("Bash", R"({"command":"grep -n \"out of memory\" /var/log/kern.log"})",
           "grep -n \"out of memory\" /var/log/kern.log", log),
      Call("Write", R"({"file_path":"/tmp/notes.txt","content":"disk quota exceeded on /scratch"})", "/tmp/notes.txt",
           "File written"),
      Call("Read", R"({"file_path":"/tmp/notes.txt"})", "/tmp/notes.txt", "disk quota exceeded on /scratch\n" + Text(2, 1200)),
  };
  const std::vector<std::string> fragments = {"Killed process 4812 (python)", "out of memory: Killed process 48213",
                                              "disk quota exceeded on /scratch", "/tmp/notes.txt", "why did the export",
                                              "nowhere at all in it"};
  EnableFoldCache(0);
  const std::string expected = Sightings(turn, fragments);
  INFO(expected);
  for (const char* source : {"self-made-output", "tool-output", "tool-input", "user-message", "nowhere"}) {
    CHECK(expected.find(source) != std::string::npos);  // the turn has every kind of answer
  }
  EnableFoldCache(1 << 20);
  CHECK(Sightings(turn, fragments) == expected);
  CHECK(Sightings(turn, fragments) == expected);  // folded inputs and outputs from the cache
  CHECK(GetFoldCacheStats().hits > 0);
  EnableFoldCache(0);
}

}  // namespace
}  // namespace causegate::evidence
