// A file that grows by whole records (one line each), for the audit log.
//
// Append writes a record with one write() call, and a write that the disk
// cut short (full disk, quota) is undone by truncating back to the size
// before it, so the file never holds half a record written by a live
// daemon. A record cut by something no code can catch (kill -9 in the
// middle of a large write, which the kernel stops between pages; a power
// loss) leaves a last line without its newline; Open finds it and
// truncates the file to its last complete line, so the next record starts
// on a line of its own instead of being glued to the torn one.
// Not thread-safe: the audit log serialises its writes.
// Tests: tests/unit/server/record_file_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "evidence/status.h"

namespace causegate::server {

class RecordFile {
 public:
  RecordFile() = default;
  ~RecordFile();
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;

  // Opens (creates, mode 0600) path for appending and repairs a torn tail.
  // *dropped gets the bytes of the torn last line removed (0 when the file
  // ended in a newline or was empty). Errors: cannot open, read or truncate.
  Status Open(const std::string& path, std::size_t* dropped);

  // Appends record, which must end in '\n', in one write. On a short or
  // failed write the file is truncated back and the error returned.
  Status Append(std::string_view record);

  // The file's size as this writer knows it.
  std::size_t size() const { return size_; }

  void Close();

 private:
  int fd_ = -1;
  std::string path_;
  std::size_t size_ = 0;
};

// Bytes to keep of a file whose last size bytes end with tail (the file's
// last tail.size() bytes): everything up to and including its last '\n'.
// Returns size when tail ends in '\n' (or is empty), and
// size - tail.size() when tail holds no newline at all.
std::size_t KeepThroughLastNewline(std::size_t size, std::string_view tail);

}  // namespace causegate::server
