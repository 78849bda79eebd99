// Parsed transcript lines kept between a daemon's stops (`causegate serve`,
// the resident daemon). Every stop reads its turn again from the
// transcript's end, and all but the lines written since the session's last
// stop were parsed then: profiling the daemon, parsing the lines of a 20 KB
// turn was a quarter of a verdict's instructions (bench/RESULTS.md). An
// entry is keyed by the line's bytes and the parser that read them
// (evidence/content_cache.h), so a line rewritten, a transcript truncated
// or replaced, can only miss: the record is exactly the parser's for those
// bytes. The line number is not part of a record; the reader sets it.
// Internal to evidence/ but for turning it on. Off until a process does;
// the hook process never does (it reads one stop). Thread-safe.
// Tests: tests/unit/evidence/line_cache_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

#include "evidence/claude_line.h"
#include "evidence/content_cache.h"

namespace causegate::evidence {

// Lines shorter than this are parsed each time: a look-up costs about what
// parsing a short line does.
inline constexpr std::size_t kMinCachedLineBytes = 128;

// Turns the cache on with room for max_bytes (0: off, the default), or
// changes its bound.
void EnableLineCache(std::size_t max_bytes);

// The bound a daemon enables: CAUSEGATE_LINE_CACHE_MB (0, off, to 4096),
// else 64 MiB.
std::size_t LineCacheBytesFromEnvironment();

// parse(), parser `salt`'s record of line, kept between stops when the
// cache is on and the line is long enough.
LineRecord ParseKept(std::uint64_t salt, std::string_view line, const std::function<LineRecord()>& parse);

ContentCacheStats GetLineCacheStats();

}  // namespace causegate::evidence
