#include "gate/state_dir.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace causegate::gate {

std::string StateDir() {
  const char* xdg = std::getenv("XDG_STATE_HOME");
  if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/causegate";
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0') return std::string(home) + "/.local/state/causegate";
  return "";
}

std::string StateDirOr(std::string_view configured) {
  return configured.empty() ? StateDir() : std::string(configured);
}

std::string HashHex(std::string_view text) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kHex[h & 0xf];
    h >>= 4;
  }
  return out;
}

std::string SafeFileName(std::string_view id) {
  bool safe = !id.empty() && id.size() <= 96 && id.front() != '.';
  for (const char c : id) {
    if (!safe) break;
    safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
  }
  return safe ? std::string(id) : "h" + HashHex(id);
}

Status EnsureDir(const std::string& path) {
  if (path.empty()) return Status::Error("state folder: neither XDG_STATE_HOME nor HOME is set");
  std::string partial;
  std::size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    partial = path.substr(0, pos);
    if (partial.empty()) continue;
    if (mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) {
      return Status::Error(partial + ": " + std::strerror(errno));
    }
  }
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return Status::Error(path + ": not a folder");
  return Status::Ok();
}

}  // namespace causegate::gate
