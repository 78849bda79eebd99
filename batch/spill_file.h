// Bytes kept on disk instead of in memory: an unlinked temporary file that
// `check` writes each judged turn's JSON object to as it is judged
// (TurnRecord::json stays empty and json_spill says where the object is),
// read back one object at a time when the JSON report is written. So a
// large check's memory holds what the other reports read of each turn, not
// every turn object: its JSON is most of what the results would weigh.
// The gram filters of a large file's earlier turns are kept there too
// (batch/session_history.h), and given back once out of reach (Release).
//
// The file is created with O_TMPFILE where the kernel has it (else made and
// unlinked at once) in $TMPDIR or /tmp, and goes with the last reference.
// Thread safety: Append and Read may be called from any thread (pwrite and
// pread at offsets Append hands out under a lock).
// Tests: tests/unit/batch/spill_file_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "evidence/status.h"

namespace causegate::batch {

class SpillFile {
 public:
  // Errors: "spill file in DIR: why" when no file could be made there.
  static Status Open(std::shared_ptr<SpillFile>* out);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  // Writes bytes at the end; *offset is where they start.
  Status Append(std::string_view bytes, std::int64_t* offset);
  // Reads size bytes at offset (as Append placed them) into *out.
  Status Read(std::int64_t offset, std::size_t size, std::string* out) const;
  // The same into dst, which has room for size bytes.
  Status ReadInto(std::int64_t offset, std::size_t size, void* dst) const;
  // Bytes [offset, offset + size), as Append placed them, will not be read
  // again: the file system may free them (a hole is punched where it
  // can; elsewhere nothing happens, and the bytes stay on disk until the
  // file goes).
  void Release(std::int64_t offset, std::size_t size);

  std::int64_t size() const;

 private:
  SpillFile(int fd, std::string folder) : fd_(fd), folder_(std::move(folder)) {}
  const int fd_;
  const std::string folder_;  // for errors
  mutable std::mutex mutex_;  // guards end_
  std::int64_t end_ = 0;
};

// Where a spilled object is.
struct SpillRef {
  std::shared_ptr<const SpillFile> file;  // null: not spilled
  std::int64_t offset = 0;
  std::size_t size = 0;
};

}  // namespace causegate::batch
