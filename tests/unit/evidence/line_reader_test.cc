// Forward and backward line readers against a reference split, over block
// sizes that put line ends on and across every block boundary, and with a
// small line limit so the too-long path is exercised. Also: which paths
// TranscriptFile refuses, and that a FIFO does not hang.
#include "evidence/line_reader.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

struct Expected {
  std::string text;
  bool too_long;
  bool operator==(const Expected& o) const { return text == o.text && too_long == o.too_long; }
};

std::vector<Expected> ReferenceSplit(const std::string& data, std::size_t max_line) {
  std::vector<Expected> out;
  if (data.empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t nl = data.find('\n', start);
    if (nl == std::string::npos) {
      if (start < data.size()) {
        std::string line = data.substr(start);
        const bool too_long = line.size() > max_line;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        out.push_back({too_long ? "" : line, too_long});
      }
      break;
    }
    std::string line = data.substr(start, nl - start);
    const bool too_long = line.size() > max_line;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back({too_long ? "" : line, too_long});
    start = nl + 1;
  }
  return out;
}

std::unique_ptr<TranscriptFile> OpenOrFail(const std::string& path) {
  std::unique_ptr<TranscriptFile> file;
  const Status s = TranscriptFile::Open(path, &file);
  INFO(s.message());
  REQUIRE(s.ok());
  return file;
}

TEST_CASE("line readers split like a reference, forwards and backwards", "[line_reader]") {
  testing::TempDir dir;
  const std::string long_line(40, 'x');
  const std::vector<std::string> inputs = {
      "",
      "\n",
      "a",
      "a\n",
      "a\nb",
      "a\nb\n",
      "\n\na\n\n",
      "a\r\nb\r\n",
      "{\"k\":1}\n{\"k\":2}\n{\"k\":3}",
      "short\n" + long_line + "\nend\n",
      long_line + "\nmiddle\n" + long_line,
      long_line + long_line + "\n",
      "abc\n" + std::string(12, 'y') + "\n" + std::string(11, 'z'),
  };
  const std::vector<std::size_t> blocks = {1, 2, 3, 7, 64, 1 << 16};
  const std::vector<std::size_t> max_lines = {10, 1000};
  int n = 0;
  for (const std::string& data : inputs) {
    const std::string path = dir.WriteRaw("in" + std::to_string(n++), data);
    for (const std::size_t block : blocks) {
      for (const std::size_t max_line : max_lines) {
        INFO("input=" << nlohmann::json(data).dump() << " block=" << block
                      << " max_line=" << max_line);
        const std::vector<Expected> want = ReferenceSplit(data, max_line);

        ForwardLineReader forward(OpenOrFail(path), block, max_line);
        std::vector<Expected> got;
        RawLine line;
        while (forward.Next(&line)) {
          CHECK(line.number == static_cast<std::int64_t>(got.size()) + 1);
          got.push_back({std::string(line.text), line.too_long});
        }
        CHECK(forward.status().ok());
        CHECK(got == want);

        ReverseLineReader reverse(OpenOrFail(path), block, max_line);
        std::vector<Expected> back;
        while (reverse.Prev(&line)) {
          CHECK(line.number == static_cast<std::int64_t>(back.size()) + 1);
          back.insert(back.begin(), {std::string(line.text), line.too_long});
        }
        CHECK(reverse.status().ok());
        CHECK(back == want);
        const std::optional<std::int64_t> total = reverse.TotalLines();
        REQUIRE(total.has_value());
        CHECK(*total == static_cast<std::int64_t>(want.size()));
      }
    }
  }
}

TEST_CASE("forward reader: each line's offset, and a range read as a file", "[line_reader]") {
  testing::TempDir dir;
  // Short lines, a "\r\n" end, a blank line and one over the line limit.
  const std::string data = "first\nsecond\r\n\n" + std::string(40, 'x') + "\nafter the long one\nlast";
  const std::string path = dir.WriteRaw("offsets", data);
  for (const std::size_t block : {1, 3, 7, 64}) {
    INFO("block " << block);
    std::shared_ptr<const TranscriptFile> file = OpenOrFail(path);
    ForwardLineReader whole(file, LineRange{0, file->size(), 1}, block, /*max_line_bytes=*/20);
    std::vector<std::int64_t> offsets;
    RawLine line;
    while (whole.Next(&line)) offsets.push_back(line.offset);
    CHECK(offsets == std::vector<std::int64_t>{0, 6, 14, 15, 56, 75});

    // From "after the long one" (line 5) to just before "last".
    ForwardLineReader range(file, LineRange{56, 75, 5}, block, 20);
    REQUIRE(range.Next(&line));
    CHECK(line.text == "after the long one");
    CHECK(line.number == 5);
    CHECK(line.offset == 56);
    CHECK_FALSE(range.Next(&line));
    CHECK(range.status().ok());
    // From the blank line: the long line is still too long, as read whole.
    ForwardLineReader middle(file, LineRange{14, 56, 3}, block, 20);
    REQUIRE(middle.Next(&line));
    CHECK(line.text.empty());
    REQUIRE(middle.Next(&line));
    CHECK(line.too_long);
    CHECK(line.number == 4);
    CHECK_FALSE(middle.Next(&line));
  }
}

TEST_CASE("reverse reader knows line numbers once it holds the file's start", "[line_reader]") {
  testing::TempDir dir;
  std::string data;
  for (int i = 1; i <= 50; ++i) data += "line " + std::to_string(i) + "\n";
  const std::string path = dir.WriteRaw("numbers", data);

  ReverseLineReader small_blocks(OpenOrFail(path), 16);
  RawLine line;
  REQUIRE(small_blocks.Prev(&line));
  CHECK(line.text == "line 50");
  CHECK_FALSE(small_blocks.TotalLines().has_value());

  ReverseLineReader one_block(OpenOrFail(path));
  REQUIRE(one_block.Prev(&line));
  REQUIRE(one_block.Prev(&line));
  CHECK(line.text == "line 49");
  REQUIRE(one_block.TotalLines().has_value());
  CHECK(*one_block.TotalLines() == 50);
}

TEST_CASE("a line far over the limit is skipped with bounded memory", "[line_reader]") {
  testing::TempDir dir;
  const std::string huge(300000, 'h');
  const std::string path = dir.WriteRaw("huge", "first\n" + huge + "\nlast\n");
  ReverseLineReader reverse(OpenOrFail(path), 4096, 1000);
  RawLine line;
  REQUIRE(reverse.Prev(&line));
  CHECK(line.text == "last");
  REQUIRE(reverse.Prev(&line));
  CHECK(line.too_long);
  CHECK(line.text.empty());
  REQUIRE(reverse.Prev(&line));
  CHECK(line.text == "first");
  CHECK_FALSE(reverse.Prev(&line));
}

TEST_CASE("the backward reader reads at most max_scan_bytes from the end", "[line_reader]") {
  testing::TempDir dir;
  const std::string data = "first\nsecond\nthird\n";  // 19 bytes
  const std::string path = dir.WriteRaw("t", data);
  for (const std::size_t max_scan : {data.size(), data.size() - 1}) {
    INFO("max_scan_bytes " << max_scan);
    ReverseLineReader reverse(OpenOrFail(path), 4, 1000, max_scan);
    RawLine line;
    REQUIRE(reverse.Prev(&line));
    CHECK(line.text == "third");
    REQUIRE(reverse.Prev(&line));
    CHECK(line.text == "second");
    // The first line's start is the file's start: inside the bound only
    // when the whole file is.
    const bool within = max_scan >= data.size();
    CHECK(reverse.Prev(&line) == within);
    if (within) CHECK(line.text == "first");
    CHECK(reverse.status().ok() == within);
    if (!within) CHECK(reverse.status().message().find("18 bytes from its end") != std::string::npos);
  }
}

TEST_CASE("TranscriptFile refuses what is not a regular file", "[line_reader]") {
  testing::TempDir dir;
  REQUIRE(::mkdir(dir.File("sub").c_str(), 0700) == 0);
  REQUIRE(::mkfifo(dir.File("fifo").c_str(), 0600) == 0);
  struct Case {
    std::string name;
    std::string path;
    std::string what;
  };
  const std::vector<Case> cases = {
      {"missing", dir.File("nope.jsonl"), "No such file"},
      {"directory", dir.File("sub"), "is a directory"},
      {"fifo", dir.File("fifo"), "not a regular file"},
      {"empty path", "", "empty"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    std::unique_ptr<TranscriptFile> file;
    const Status s = TranscriptFile::Open(c.path, &file);
    CHECK_FALSE(s.ok());
    CHECK(s.message().find(c.what) != std::string::npos);
    CHECK(s.message().find(c.path) != std::string::npos);
    CHECK(file == nullptr);
  }
}

}  // namespace
}  // namespace causegate::evidence
