// Line readers over a transcript file. The backward reader is what keeps a
// hook call's cost proportional to the last turn: it reads the file from
// its end in blocks of limits::kReadBlockBytes and hands out lines last
// first. A line that does not fit in a block makes the next read as large
// as what is buffered (doubling), so a long line costs O(length), not
// O(length^2); past max_line_bytes the line's bytes are dropped as they are
// read and only the line's place is reported. Files are opened
// non-blocking after a stat, so a FIFO or a device named as a transcript
// is refused instead of hanging the hook.
// Tests: tests/unit/evidence/line_reader_test.cc.
#include "evidence/line_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

namespace causegate::evidence {
namespace {

std::string ErrnoText(int err) { return std::system_category().message(err); }

Status CheckRegular(const std::string& path, const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return Status::Error(path + ": is a directory");
  if (!S_ISREG(st.st_mode)) return Status::Error(path + ": not a regular file");
  return Status::Ok();
}

std::string_view StripCr(std::string_view text) {
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

}  // namespace

Status TranscriptFile::Open(const std::string& path, std::unique_ptr<TranscriptFile>* out) {
  if (path.empty()) return Status::Error("transcript path is empty");
  // stat first so that a FIFO or device is never opened at all; fstat
  // after the open closes the race with a path swapped in between.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Status::Error(path + ": " + ErrnoText(errno));
  if (Status s = CheckRegular(path, st); !s.ok()) return s;
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Status::Error(path + ": " + ErrnoText(errno));
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return Status::Error(path + ": " + ErrnoText(err));
  }
  if (Status s = CheckRegular(path, st); !s.ok()) {
    ::close(fd);
    return s;
  }
  out->reset(new TranscriptFile(path, fd, static_cast<std::int64_t>(st.st_size)));
  return Status::Ok();
}

TranscriptFile::~TranscriptFile() { ::close(fd_); }

Status TranscriptFile::ReadAt(std::int64_t offset, std::size_t n, char* dst) const {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd_, dst + done, n - done, static_cast<off_t>(offset) +
                                                               static_cast<off_t>(done));
    if (got < 0) {
      if (errno == EINTR) continue;
      return Status::Error(path_ + ": read: " + ErrnoText(errno));
    }
    if (got == 0) return Status::Error(path_ + ": file shrank while being read");
    done += static_cast<std::size_t>(got);
  }
  return Status::Ok();
}

// ---------------------------------------------------------------- forward

ForwardLineReader::ForwardLineReader(std::shared_ptr<const TranscriptFile> file,
                                     std::size_t block_bytes, std::size_t max_line_bytes,
                                     std::size_t max_read_bytes)
    : file_(std::move(file)),
      block_bytes_(std::max<std::size_t>(block_bytes, 1)),
      max_line_bytes_(max_line_bytes),
      max_read_bytes_(max_read_bytes),
      end_(file_->size()) {}

ForwardLineReader::ForwardLineReader(std::shared_ptr<const TranscriptFile> file, const LineRange& range,
                                     std::size_t block_bytes, std::size_t max_line_bytes)
    : file_(std::move(file)),
      block_bytes_(std::max<std::size_t>(block_bytes, 1)),
      max_line_bytes_(max_line_bytes),
      max_read_bytes_(static_cast<std::size_t>(-1)),
      end_(std::min(range.end, file_->size())),
      offset_(range.begin),
      line_offset_(range.begin),
      number_(range.first_line - 1) {}

bool ForwardLineReader::Fill() {
  if (start_ > 0) {
    buf_.erase(0, start_);
    start_ = 0;
    // A long line grew the buffer; the lines after it are short again, and
    // a reader that runs through a whole file (check) should not hold the
    // longest line's size to its end.
    if (buf_.capacity() > 4 * block_bytes_ && buf_.size() < block_bytes_) buf_.shrink_to_fit();
  }
  const std::int64_t left = end_ - offset_;
  if (left <= 0) return false;
  if (static_cast<std::size_t>(offset_) >= max_read_bytes_) {
    status_ = Status::Error(file_->path() + ": not read past " + std::to_string(max_read_bytes_) +
                            " bytes from its start (limits::kMaxScanBackBytes)");
    return false;
  }
  const std::size_t n = std::min({block_bytes_, static_cast<std::size_t>(left),
                                  max_read_bytes_ - static_cast<std::size_t>(offset_)});
  const std::size_t old = buf_.size();
  buf_.resize(old + n);
  if (Status s = file_->ReadAt(offset_, n, buf_.data() + old); !s.ok()) {
    status_ = s;
    buf_.resize(old);
    return false;
  }
  offset_ += static_cast<std::int64_t>(n);
  return true;
}

bool ForwardLineReader::Next(RawLine* line) {
  while (status_.ok()) {
    const char* base = buf_.data() + start_;
    const std::size_t avail = buf_.size() - start_;
    const void* nl = avail > scanned_ ? std::memchr(base + scanned_, '\n', avail - scanned_)
                                      : nullptr;
    if (nl != nullptr) {
      const auto len = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
      const bool too_long = skipping_ || len > max_line_bytes_;
      line->text = too_long ? std::string_view() : StripCr(std::string_view(base, len));
      line->number = ++number_;
      line->too_long = too_long;
      line->offset = line_offset_;
      start_ += len + 1;
      // buf_ holds the file's bytes [offset_ - size, offset_).
      line_offset_ = offset_ - static_cast<std::int64_t>(buf_.size() - start_);
      scanned_ = 0;
      skipping_ = false;
      return true;
    }
    scanned_ = avail;
    if (avail > max_line_bytes_) {
      // Drop what is buffered of this line; only its end is looked for now.
      skipping_ = true;
      start_ = buf_.size();
      scanned_ = 0;
    }
    if (eof_ || !Fill()) {
      if (!status_.ok()) return false;
      eof_ = true;
      const std::size_t rest = buf_.size() - start_;
      if (rest == 0 && !skipping_) return false;
      // The last line, without a final '\n'.
      const bool too_long = skipping_ || rest > max_line_bytes_;
      line->text = too_long ? std::string_view()
                            : StripCr(std::string_view(buf_.data() + start_, rest));
      line->number = ++number_;
      line->too_long = too_long;
      line->offset = line_offset_;
      line_offset_ = offset_;
      start_ = buf_.size();
      scanned_ = 0;
      skipping_ = false;
      return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------- backward

ReverseLineReader::ReverseLineReader(std::shared_ptr<const TranscriptFile> file,
                                     std::size_t block_bytes, std::size_t max_line_bytes,
                                     std::size_t max_scan_bytes)
    : file_(std::move(file)),
      block_bytes_(std::max<std::size_t>(block_bytes, 1)),
      max_line_bytes_(max_line_bytes),
      max_scan_bytes_(max_scan_bytes),
      pos_(file_->size()) {}

bool ReverseLineReader::Load() {
  const auto scanned = static_cast<std::size_t>(file_->size() - pos_);
  if (scanned >= max_scan_bytes_) {
    status_ = Status::Error(file_->path() + ": no turn start within " + std::to_string(max_scan_bytes_) +
                            " bytes from its end (limits::kMaxScanBackBytes); not read further");
    return false;
  }
  // Grow the read with the buffer so that one long line is read in
  // O(log) steps instead of block by block; but never past one byte over
  // max_line_bytes, where the line is known too long and skipped: the
  // buffer stays within the line limit, however long the line.
  std::size_t n = skipping_ ? block_bytes_ : std::max(block_bytes_, buf_.size());
  if (!skipping_ && buf_.size() <= max_line_bytes_) n = std::min(n, max_line_bytes_ + 1 - buf_.size());
  n = std::min<std::size_t>(n, static_cast<std::size_t>(pos_));
  n = std::min(n, max_scan_bytes_ - scanned);
  std::string next(n + buf_.size(), '\0');
  if (Status s = file_->ReadAt(pos_ - static_cast<std::int64_t>(n), n, next.data()); !s.ok()) {
    status_ = s;
    return false;
  }
  if (!buf_.empty()) std::memcpy(next.data() + n, buf_.data(), buf_.size());
  buf_.swap(next);
  pos_ -= static_cast<std::int64_t>(n);
  return true;
}

bool ReverseLineReader::Prev(RawLine* line) {
  if (!status_.ok() || done_) return false;
  if (cut_pending_) {
    buf_.resize(cut_);
    cut_pending_ = false;
  }
  if (!started_) {
    started_ = true;
    if (pos_ == 0) {
      done_ = true;
      return false;
    }
    if (!Load()) return false;
    // The '\n' that ends the last line does not start an empty line.
    if (!buf_.empty() && buf_.back() == '\n') buf_.pop_back();
  }
  while (true) {
    // The last clean_ bytes were searched before and hold no '\n'.
    const std::size_t unsearched = buf_.size() - clean_;
    const void* nl = unsearched == 0 ? nullptr : ::memrchr(buf_.data(), '\n', unsearched);
    if (nl != nullptr || pos_ == 0) {
      const std::size_t begin =
          nl != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data()) + 1
                        : 0;
      const std::size_t len = buf_.size() - begin;
      const bool too_long = skipping_ || len > max_line_bytes_;
      line->text = too_long ? std::string_view()
                            : StripCr(std::string_view(buf_.data() + begin, len));
      line->number = ++emitted_;
      line->too_long = too_long;
      skipping_ = false;
      clean_ = 0;
      if (nl != nullptr) {
        cut_ = begin - 1;
        cut_pending_ = true;
      } else {
        done_ = true;  // the file's first line; buf_ stays valid for the caller
      }
      return true;
    }
    if (!skipping_ && buf_.size() > max_line_bytes_) skipping_ = true;
    if (skipping_) buf_.clear();
    clean_ = buf_.size();
    if (!Load()) return false;
  }
}

std::optional<std::int64_t> ReverseLineReader::TotalLines() const {
  if (!started_) {
    if (pos_ == 0) return 0;
    return std::nullopt;
  }
  if (pos_ != 0 || !status_.ok()) return std::nullopt;
  if (done_) return emitted_;
  const std::size_t region = cut_pending_ ? cut_ : buf_.size();
  const auto newlines = std::count(buf_.data(), buf_.data() + region, '\n');
  return emitted_ + static_cast<std::int64_t>(newlines) + 1;
}

}  // namespace causegate::evidence
