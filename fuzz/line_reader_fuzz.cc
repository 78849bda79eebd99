// The transcript line readers (evidence/line_reader.h), forwards and
// backwards, against a plain split of the same bytes. The first two bytes
// pick a small block size and line limit, so that line ends fall on and
// across block boundaries and the too-long path runs; the rest is the file.
// Any difference between the readers and the split aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "evidence/line_reader.h"
#include "fuzz/fuzz_util.h"

namespace evidence = causegate::evidence;

namespace {

struct Line {
  std::string text;
  bool too_long;
  bool operator==(const Line& o) const { return text == o.text && too_long == o.too_long; }
};

// A line is cut at '\n'; a last line without one still counts. The limit
// applies to the bytes before '\n' (a trailing '\r' included); a line over
// it is reported without its text.
std::vector<Line> PlainSplit(std::string_view data, std::size_t max_line) {
  std::vector<Line> out;
  while (!data.empty()) {
    const std::size_t nl = data.find('\n');
    std::string_view raw = data.substr(0, nl);
    data.remove_prefix(nl == std::string_view::npos ? data.size() : nl + 1);
    const bool too_long = raw.size() > max_line;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    out.push_back({too_long ? std::string() : std::string(raw), too_long});
  }
  return out;
}

std::unique_ptr<evidence::TranscriptFile> OpenOrDie(const std::string& path) {
  std::unique_ptr<evidence::TranscriptFile> file;
  if (!evidence::TranscriptFile::Open(path, &file).ok()) std::abort();
  return file;
}

void Check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "line_reader_fuzz: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  causegate::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t block = 1 + data[0] % 64;
  const std::size_t max_line = 1 + data[1] % 128;
  const std::string_view body = causegate::fuzz::AsText(data + 2, size - 2);
  const std::string path = causegate::fuzz::ScratchDir() + "/lines";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
  }
  const std::vector<Line> want = PlainSplit(body, max_line);

  evidence::ForwardLineReader forward(OpenOrDie(path), block, max_line);
  std::vector<Line> got;
  evidence::RawLine line;
  while (forward.Next(&line)) {
    Check(line.number == static_cast<std::int64_t>(got.size()) + 1, "forward line number");
    got.push_back({std::string(line.text), line.too_long});
  }
  Check(forward.status().ok(), "forward reader failed");
  Check(got == want, "forward lines differ from the split");

  evidence::ReverseLineReader reverse(OpenOrDie(path), block, max_line);
  std::vector<Line> back;
  while (reverse.Prev(&line)) {
    Check(line.number == static_cast<std::int64_t>(back.size()) + 1, "reverse line number");
    back.push_back({std::string(line.text), line.too_long});
  }
  Check(reverse.status().ok(), "reverse reader failed");
  Check(std::vector<Line>(back.rbegin(), back.rend()) == want, "reverse lines differ from the split");
  const std::optional<std::int64_t> total = reverse.TotalLines();
  Check(total.has_value() && *total == static_cast<std::int64_t>(want.size()), "reverse line total");
  return 0;
}
