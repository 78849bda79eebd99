#include "install/settings_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace causegate::install {
namespace {

Status Errno(const std::string& path) { return Status::Error(path + ": " + std::strerror(errno)); }

Status WriteFile(const std::string& path, const std::string& text, mode_t mode) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return Errno(path);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const Status s = Errno(path);
      close(fd);
      return s;
    }
    done += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0 || close(fd) != 0) return Errno(path);
  return Status::Ok();
}

// The file as it was before causegate first changed it: written once, never
// over an existing backup (which may hold the user's original layout).
Status Backup(const std::string& path, std::string* backup_path) {
  SettingsText current;
  if (Status s = ReadSettings(path, &current); !s.ok()) return s;
  backup_path->clear();
  if (!current.exists || current.has_backup) return Status::Ok();
  struct stat st {};
  const mode_t mode = stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0600;
  *backup_path = path + kBackupSuffix;
  return WriteFile(*backup_path, current.text, mode);
}

}  // namespace

Status ReadSettings(const std::string& path, SettingsText* out) {
  *out = SettingsText();
  struct stat st {};
  out->has_backup = stat((path + kBackupSuffix).c_str(), &st) == 0;
  if (lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char* real = realpath(path.c_str(), nullptr);
    if (real == nullptr) {
      std::error_code ec;
      const std::string to = std::filesystem::read_symlink(path, ec).string();
      return Status::Error(path + ": a symbolic link to " + to + ", which cannot be followed (" +
                           std::strerror(errno) + ")");
    }
    out->target = real;
    std::free(real);
  }
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::Ok();
    return Errno(path);
  }
  if (!S_ISREG(st.st_mode)) return Status::Error(path + ": not a regular file");
  if (static_cast<std::size_t>(st.st_size) > kMaxSettingsBytes) {
    return Status::Error(path + ": larger than " + std::to_string(kMaxSettingsBytes) + " bytes");
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Errno(path);
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      const Status s = Errno(path);
      close(fd);
      return s;
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > kMaxSettingsBytes) {
      close(fd);
      return Status::Error(path + ": larger than " + std::to_string(kMaxSettingsBytes) + " bytes");
    }
  }
  close(fd);
  out->exists = true;
  out->text = std::move(text);
  return Status::Ok();
}

Status WriteSettings(const std::string& path, const std::string& text, std::string* backup_path) {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  if (ec) return Status::Error(parent.string() + ": " + ec.message());
  SettingsText current;
  if (Status s = ReadSettings(path, &current); !s.ok()) return s;
  if (Status s = Backup(path, backup_path); !s.ok()) return s;
  // A symbolic link (a dotfile kept in another folder) stays a link: the
  // file it points to is replaced, in its own folder.
  const std::string file = current.target.empty() ? path : current.target;
  struct stat st {};
  const mode_t mode = stat(file.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
  const std::string tmp = file + ".causegate-tmp";
  if (Status s = WriteFile(tmp, text, mode); !s.ok()) return s;
  if (std::rename(tmp.c_str(), file.c_str()) != 0) {
    const Status s = Errno(file);
    std::remove(tmp.c_str());
    return s;
  }
  return Status::Ok();
}

Status RemoveSettings(const std::string& path) {
  if (std::remove(path.c_str()) != 0) return Errno(path);
  return Status::Ok();
}

}  // namespace causegate::install
