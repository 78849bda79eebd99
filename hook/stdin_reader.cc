#include "hook/stdin_reader.h"

#include <cerrno>
#include <cstring>

namespace causegate::hook {

Status ReadBounded(std::FILE* f, std::size_t limit, std::string* out) {
  out->clear();
  char buf[64 * 1024];
  while (true) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    if (n > 0) {
      if (out->size() + n > limit) {
        return Status::Error("hook input: larger than " + std::to_string(limit) + " bytes");
      }
      out->append(buf, n);
    }
    if (n < sizeof buf) {
      if (std::ferror(f)) return Status::Error(std::string("hook input: read error: ") + std::strerror(errno));
      return Status::Ok();
    }
  }
}

}  // namespace causegate::hook
