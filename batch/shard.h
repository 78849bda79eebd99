// --shard I/N: a stable 1/N share of the files, so that a CI matrix or any
// batch engine spreads a corpus over machines with no coordination. A file
// belongs to shard (FNV-1a-64(path) mod N) + 1, where path is the path as
// found (as given on the command line, joined with the names below a
// folder), with leading "./" removed: relative paths hash the same on every
// machine, so every file lands in exactly one shard wherever it runs.
// Tests: tests/unit/batch/shard_test.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "evidence/status.h"

namespace causegate::batch {

struct Shard {
  int index = 1;  // 1-based, as CI matrices count
  int count = 1;
  bool all() const { return count == 1; }
};

// Parses "I/N" with 1 <= I <= N <= 1,000,000. Errors name the text.
Status ParseShard(std::string_view text, Shard* out);

std::uint64_t Fnv1a64(std::string_view bytes);

// The path as hashed: leading "./" (repeated) removed.
std::string_view ShardKey(std::string_view path);

bool InShard(std::string_view path, const Shard& shard);

}  // namespace causegate::batch
