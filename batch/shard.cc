#include "batch/shard.h"

#include <charconv>

namespace causegate::batch {
namespace {

constexpr int kMaxShards = 1000000;

bool ParseInt(std::string_view text, int* out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

Status ParseShard(std::string_view text, Shard* out) {
  const std::size_t slash = text.find('/');
  Shard shard;
  if (slash == std::string_view::npos || !ParseInt(text.substr(0, slash), &shard.index) ||
      !ParseInt(text.substr(slash + 1), &shard.count) || shard.count < 1 || shard.count > kMaxShards ||
      shard.index < 1 || shard.index > shard.count) {
    return Status::Error("--shard " + std::string(text) + ": expected I/N with 1 <= I <= N (for example 2/4)");
  }
  *out = shard;
  return Status::Ok();
}

std::uint64_t Fnv1a64(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string_view ShardKey(std::string_view path) {
  while (path.size() > 2 && path.substr(0, 2) == "./") {
    path.remove_prefix(2);
    while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  }
  return path;
}

bool InShard(std::string_view path, const Shard& shard) {
  if (shard.all()) return true;
  return static_cast<int>(Fnv1a64(ShardKey(path)) % static_cast<std::uint64_t>(shard.count)) + 1 == shard.index;
}

}  // namespace causegate::batch
