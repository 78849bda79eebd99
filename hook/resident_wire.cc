#include "hook/resident_wire.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace causegate::hook {
namespace {

// FNV-1a, 64 bits: a fingerprint to compare, not a secret.
std::uint64_t Fnv1a(std::string_view text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

std::string EnvOrEmpty(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

bool AddLine(std::string* out, std::string_view key, std::string_view value) {
  if (value.find('\n') != std::string_view::npos) return false;
  out->append(key);
  out->push_back(' ');
  out->append(value);
  out->push_back('\n');
  return true;
}

}  // namespace

Status ResidentFolder(std::string* out) {
  const std::string runtime = EnvOrEmpty("XDG_RUNTIME_DIR");
  const std::string folder = !runtime.empty() && runtime[0] == '/' ? runtime + "/causegate"
                                                                     : "/tmp/causegate-" + std::to_string(getuid());
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::Error(folder + ": cannot create: " + std::strerror(errno));
  }
  struct stat st {};
  if (::lstat(folder.c_str(), &st) != 0) return Status::Error(folder + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return Status::Error(folder + ": not a folder");
  if (st.st_uid != getuid()) return Status::Error(folder + ": owned by uid " + std::to_string(st.st_uid) + ", not by this user");
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return Status::Error(folder + ": mode " + mode + " lets others in (want 0700)");
  }
  *out = folder;
  return Status::Ok();
}

std::string ResidentSocketPath(const std::string& folder) { return folder + "/resident.sock"; }
std::string ResidentLockPath(const std::string& folder) { return folder + "/resident.lock"; }
std::string ResidentLogPath(const std::string& folder) { return folder + "/resident.log"; }

std::string ResidentFingerprint(const std::string& version, const std::string& binary_path) {
  struct stat st {};
  if (::stat(binary_path.c_str(), &st) != 0) return "";
  std::string text = version;
  for (const unsigned long long n :
       {static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino),
        static_cast<unsigned long long>(st.st_size), static_cast<unsigned long long>(st.st_mtim.tv_sec),
        static_cast<unsigned long long>(st.st_mtim.tv_nsec)}) {
    text += '\0' + std::to_string(n);
  }
  for (const char* name : {"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "CAUSEGATE_TRANSCRIPT_WAIT_MS"}) {
    text += '\0';
    text += name;
    text += '=';
    text += EnvOrEmpty(name);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(Fnv1a(text)));
  return hex;
}

Status EncodeResidentRequest(const ResidentRequest& request, std::string* out) {
  out->clear();
  out->append(kResidentMagic);
  out->push_back('\n');
  bool ok = AddLine(out, "op", request.op) && AddLine(out, "fingerprint", request.fingerprint) &&
            AddLine(out, "resident", request.resident) && AddLine(out, "log", request.log) &&
            AddLine(out, "plugin_root", request.plugin_root) && AddLine(out, "stderr", request.stderr_id);
  for (const std::string& arg : request.args) ok = ok && AddLine(out, "arg", arg);
  if (!ok) return Status::Error("resident request: a value holds a newline");
  AddLine(out, "input", std::to_string(request.input.size()));
  out->push_back('\n');
  out->append(request.input);
  return Status::Ok();
}

Status DecodeResidentRequest(std::string_view text, ResidentRequest* out, bool* complete) {
  *complete = false;
  const std::size_t head_end = text.find("\n\n");
  if (head_end == std::string_view::npos) {
    if (text.size() > 65536) return Status::Error("resident request: header larger than 64 KiB");
    return Status::Ok();
  }
  *out = ResidentRequest();
  std::string_view head = text.substr(0, head_end + 1);
  std::size_t input_bytes = 0;
  bool have_input = false;
  bool first = true;
  while (!head.empty()) {
    const std::size_t nl = head.find('\n');
    const std::string_view line = head.substr(0, nl);
    head.remove_prefix(nl + 1);
    if (first) {
      if (line != kResidentMagic) return Status::Error("resident request: not \"" + std::string(kResidentMagic) + "\"");
      first = false;
      continue;
    }
    const std::size_t space = line.find(' ');
    const std::string_view key = line.substr(0, space);
    const std::string value(space == std::string_view::npos ? std::string_view() : line.substr(space + 1));
    if (key == "op") {
      out->op = value;
    } else if (key == "fingerprint") {
      out->fingerprint = value;
    } else if (key == "resident") {
      out->resident = value;
    } else if (key == "log") {
      out->log = value;
    } else if (key == "plugin_root") {
      out->plugin_root = value;
    } else if (key == "stderr") {
      out->stderr_id = value;
    } else if (key == "arg") {
      out->args.push_back(value);
    } else if (key == "input") {
      char* end = nullptr;
      const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n > kMaxResidentRequestBytes) {
        return Status::Error("resident request: bad input size \"" + value + "\"");
      }
      input_bytes = static_cast<std::size_t>(n);
      have_input = true;
    } else {
      return Status::Error("resident request: unknown line \"" + std::string(key) + "\"");
    }
  }
  if (!have_input) return Status::Error("resident request: no input line");
  const std::size_t body = head_end + 2;
  if (text.size() < body + input_bytes) return Status::Ok();
  if (text.size() > body + input_bytes) return Status::Error("resident request: bytes past the input");
  out->input.assign(text.substr(body, input_bytes));
  *complete = true;
  return Status::Ok();
}

std::string FileIdOf(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return "";
  return std::to_string(static_cast<unsigned long long>(st.st_dev)) + ":" +
         std::to_string(static_cast<unsigned long long>(st.st_ino));
}

}  // namespace causegate::hook
