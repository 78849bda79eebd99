#include "evidence/line_cache.h"

namespace causegate::evidence {
namespace {

// The bytes a record holds, roughly: its strings and the fixed parts.
std::size_t RecordBytes(const LineRecord& rec) {
  std::size_t bytes = sizeof(LineRecord) + rec.text.size() + rec.message_id.size() + rec.facts.session_id.size() +
                      rec.facts.agent_version.size() + rec.facts.model.size() + rec.facts.timestamp.size() +
                      rec.facts.cwd.size();
  for (const AssistantBlock& b : rec.blocks) {
    bytes += sizeof(AssistantBlock) + b.text.size() + b.call.id.size() + b.call.name.size() + b.call.input.size() +
             b.call.command.size() + b.call.output.size();
  }
  for (const ToolResult& r : rec.results) bytes += sizeof(ToolResult) + r.tool_use_id.size() + r.output.size();
  return bytes;
}

ContentCache<LineRecord>& Cache() {
  static auto* cache = new ContentCache<LineRecord>(RecordBytes);  // never destroyed: daemons' threads
  return *cache;
}

}  // namespace

void EnableLineCache(std::size_t max_bytes) { Cache().SetBound(max_bytes); }

std::size_t LineCacheBytesFromEnvironment() { return CacheBytesFromEnvironment("CAUSEGATE_LINE_CACHE_MB", 64); }

LineRecord ParseKept(std::uint64_t salt, std::string_view line, const std::function<LineRecord()>& parse) {
  if (line.size() < kMinCachedLineBytes) return parse();
  return Cache().GetOrCompute(salt, line, parse);
}

ContentCacheStats GetLineCacheStats() { return Cache().stats(); }

}  // namespace causegate::evidence
