#include "server/request_head.h"

namespace causegate::server {

namespace {
// cpp-httplib refuses a request line over 8 KiB with 414; twice that leaves
// it room to say so.
constexpr std::size_t kRequestLineRoom = 16u << 10;
}  // namespace

std::size_t RequestHeadEnd(std::string_view bytes) {
  const std::size_t at = bytes.find("\n\r\n");
  return at == std::string_view::npos ? std::string_view::npos : at + 3;
}

std::size_t RequestHeadLimit(std::size_t max_header_bytes) { return max_header_bytes + kRequestLineRoom; }

}  // namespace causegate::server
