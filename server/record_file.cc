#include "server/record_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace causegate::server {
namespace {

constexpr std::size_t kTailBlock = 64u << 10;

std::string Errno(const std::string& path, const char* what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

}  // namespace

std::size_t KeepThroughLastNewline(std::size_t size, std::string_view tail) {
  if (tail.empty() || tail.back() == '\n') return size;
  const std::size_t at = tail.rfind('\n');
  if (at == std::string_view::npos) return size - tail.size();
  return size - tail.size() + at + 1;
}

RecordFile::~RecordFile() { Close(); }

void RecordFile::Close() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

Status RecordFile::Open(const std::string& path, std::size_t* dropped) {
  Close();
  *dropped = 0;
  path_ = path;
  fd_ = open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ < 0) return Status::Error(Errno(path, "open"));
  struct stat st {};
  if (fstat(fd_, &st) != 0) return Status::Error(Errno(path, "stat"));
  std::size_t size = static_cast<std::size_t>(st.st_size);
  // Walk back block by block until a newline or the start of the file: a
  // torn line is at most one record long, so this reads one block or two.
  std::size_t keep = size;
  std::vector<char> block(kTailBlock);
  for (std::size_t end = size; end > 0;) {
    const std::size_t start = end > kTailBlock ? end - kTailBlock : 0;
    const ssize_t n = pread(fd_, block.data(), end - start, static_cast<off_t>(start));
    if (n != static_cast<ssize_t>(end - start)) return Status::Error(Errno(path, "read"));
    const std::string_view tail(block.data(), end - start);
    keep = KeepThroughLastNewline(end, tail);
    if (keep > start) break;  // a newline in this block (or the file ended in one)
    end = start;
  }
  if (keep < size) {
    if (ftruncate(fd_, static_cast<off_t>(keep)) != 0) return Status::Error(Errno(path, "truncate"));
    *dropped = size - keep;
    size = keep;
  }
  size_ = size;
  return Status::Ok();
}

Status RecordFile::Append(std::string_view record) {
  if (fd_ < 0) return Status::Error(path_ + ": not open");
  const ssize_t n = write(fd_, record.data(), record.size());
  if (n == static_cast<ssize_t>(record.size())) {
    size_ += record.size();
    return Status::Ok();
  }
  const std::string error = n < 0 ? Errno(path_, "write") : path_ + ": write: short write (disk full?)";
  // Undo the part that did land, so the next record starts on a fresh line.
  if (n > 0 && ftruncate(fd_, static_cast<off_t>(size_)) != 0) {
    return Status::Error(error + "; truncating back: " + std::strerror(errno));
  }
  return Status::Error(error);
}

}  // namespace causegate::server
