#include "batch/spill_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace causegate::batch {
namespace {

std::string Folder() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? std::string(dir) : std::string("/tmp");
}

}  // namespace

Status SpillFile::Open(std::shared_ptr<SpillFile>* out) {
  const std::string folder = Folder();
  int fd = -1;
#ifdef O_TMPFILE
  fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, S_IRUSR | S_IWUSR);
#endif
  if (fd < 0) {
    std::string name = folder + "/causegate-spill-XXXXXX";
    fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(name.c_str());
  }
  if (fd < 0) return Status::Error("spill file in " + folder + ": " + std::strerror(errno));
  out->reset(new SpillFile(fd, folder));
  return Status::Ok();
}

SpillFile::~SpillFile() { ::close(fd_); }

Status SpillFile::Append(std::string_view bytes, std::int64_t* offset) {
  std::int64_t at = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    at = end_;
    end_ += static_cast<std::int64_t>(bytes.size());
  }
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, at + static_cast<std::int64_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::Error("spill file in " + folder_ + ": write: " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  *offset = at;
  return Status::Ok();
}

Status SpillFile::Read(std::int64_t offset, std::size_t size, std::string* out) const {
  out->resize(size);
  return ReadInto(offset, size, out->data());
}

Status SpillFile::ReadInto(std::int64_t offset, std::size_t size, void* dst) const {
  char* to = static_cast<char*>(dst);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, to + done, size - done, offset + static_cast<std::int64_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return Status::Error("spill file in " + folder_ + ": read: " + (n == 0 ? "short" : std::strerror(errno)));
    }
    done += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

void SpillFile::Release(std::int64_t offset, std::size_t size) {
#if defined(FALLOC_FL_PUNCH_HOLE) && defined(FALLOC_FL_KEEP_SIZE)
  if (size > 0) {
    (void)::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offset, static_cast<off_t>(size));
  }
#else
  (void)offset;
  (void)size;
#endif
}

std::int64_t SpillFile::size() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return end_;
}

}  // namespace causegate::batch
