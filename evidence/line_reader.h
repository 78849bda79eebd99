// Reading a transcript file line by line, forwards or backwards from its
// end, in bounded blocks. Internal to evidence/: the transcript readers
// (transcript.cc) sit on top of it.
//
// A line longer than max_line_bytes is reported as too long with empty
// text; neither reader holds more than about twice that limit in memory.
// "\r\n" line ends are accepted; a final line without '\n' is a line.
// Tests: tests/unit/evidence/line_reader_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "evidence/limits.h"
#include "evidence/status.h"

namespace causegate::evidence {

// A file opened for reading. Open refuses anything but a regular file and
// never blocks while opening (a FIFO is opened non-blocking, then refused).
// Not copyable; closes its descriptor on destruction.
class TranscriptFile {
 public:
  // On failure returns "path: what" and leaves *out untouched.
  static Status Open(const std::string& path, std::unique_ptr<TranscriptFile>* out);
  ~TranscriptFile();
  TranscriptFile(const TranscriptFile&) = delete;
  TranscriptFile& operator=(const TranscriptFile&) = delete;

  const std::string& path() const { return path_; }
  // Size when opened; a file that grows meanwhile is read up to this size.
  std::int64_t size() const { return size_; }
  // Reads exactly n bytes at offset into dst. A short read is an error.
  Status ReadAt(std::int64_t offset, std::size_t n, char* dst) const;

 private:
  TranscriptFile(std::string path, int fd, std::int64_t size)
      : path_(std::move(path)), fd_(fd), size_(size) {}
  std::string path_;
  int fd_;
  std::int64_t size_;
};

struct RawLine {
  std::string_view text;    // valid until the next call on the reader
  std::int64_t number = 0;  // forward: 1-based line number; backward: 1-based
                            // index counted from the end of the file
  bool too_long = false;    // text is empty: the line exceeded the limit
  std::int64_t offset = 0;  // forward only: file offset of the line's first byte
};

// Part of a file read as if it were the whole: bytes [begin, end), whose
// first line is line number first_line. begin must be a line's start.
struct LineRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t first_line = 1;
};

class ForwardLineReader {
 public:
  // max_read_bytes: reading further into the file is an error (status()).
  // Unbounded for a file read whole; the format peek bounds it, so a file
  // that is one huge hole of NUL bytes is not read to its end.
  // file: shared, so that one opened file can be peeked at and then read
  // backwards (evidence/transcript.cc opens a transcript once per read).
  explicit ForwardLineReader(std::shared_ptr<const TranscriptFile> file,
                             std::size_t block_bytes = limits::kReadBlockBytes,
                             std::size_t max_line_bytes = limits::kMaxTranscriptLineBytes,
                             std::size_t max_read_bytes = static_cast<std::size_t>(-1));
  // Reads only range of a file that may be shared (TranscriptFile::ReadAt
  // holds no state, so readers on one file may run on several threads).
  ForwardLineReader(std::shared_ptr<const TranscriptFile> file, const LineRange& range,
                    std::size_t block_bytes = limits::kReadBlockBytes,
                    std::size_t max_line_bytes = limits::kMaxTranscriptLineBytes);
  // Returns false at the end of the file or on a read error (see status()).
  bool Next(RawLine* line);
  const Status& status() const { return status_; }

 private:
  bool Fill();  // reads one more block; false at EOF or on error

  std::shared_ptr<const TranscriptFile> file_;
  const std::size_t block_bytes_;
  const std::size_t max_line_bytes_;
  const std::size_t max_read_bytes_;
  const std::int64_t end_;     // read up to here
  std::string buf_;
  std::size_t start_ = 0;      // first unconsumed byte in buf_
  std::size_t scanned_ = 0;    // bytes from start_ known to hold no '\n'
  std::int64_t offset_ = 0;    // file offset of the next block
  std::int64_t line_offset_ = 0;  // file offset of the next line
  std::int64_t number_ = 0;
  bool skipping_ = false;      // inside a line that is too long
  bool eof_ = false;
  Status status_;
};

class ReverseLineReader {
 public:
  // Reads at most max_scan_bytes from the end of the file: a line that
  // starts further back is an error (status()), so a huge file without the
  // line looked for costs a bounded read, not one of the whole file.
  explicit ReverseLineReader(std::shared_ptr<const TranscriptFile> file,
                             std::size_t block_bytes = limits::kReadBlockBytes,
                             std::size_t max_line_bytes = limits::kMaxTranscriptLineBytes,
                             std::size_t max_scan_bytes = limits::kMaxScanBackBytes);
  // The line before the last one returned (the last line first). Returns
  // false at the start of the file or on a read error (see status()),
  // which includes reaching max_scan_bytes before the line's start.
  bool Prev(RawLine* line);
  const Status& status() const { return status_; }
  const std::string& path() const { return file_->path(); }

  // Lines in the file, known once the reader has loaded the file's first
  // block (small files, or after reading back to the start); converts an
  // index from the end into a line number.
  std::optional<std::int64_t> TotalLines() const;

 private:
  bool Load();  // prepends one more block; false on error

  std::shared_ptr<const TranscriptFile> file_;
  const std::size_t block_bytes_;
  const std::size_t max_line_bytes_;
  const std::size_t max_scan_bytes_;
  std::string buf_;             // file bytes [pos_, pos_ + buf_.size()) not yet returned
  std::int64_t pos_;            // file offset of buf_[0]
  std::size_t clean_ = 0;       // trailing bytes of buf_ known to hold no '\n'
  std::size_t cut_ = 0;         // buf_ is cut here before the next search
  bool cut_pending_ = false;
  bool started_ = false;
  bool skipping_ = false;
  bool done_ = false;
  std::int64_t emitted_ = 0;
  Status status_;
};

}  // namespace causegate::evidence
