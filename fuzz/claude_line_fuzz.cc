// One Claude Code transcript line (evidence/claude_line.h), read as a main
// session and as a subagent's own file, and the tool inputs it carries
// pulled apart for the evidence index.
#include <cstddef>
#include <cstdint>

#include "evidence/claude_line.h"
#include "evidence/utf8.h"
#include "fuzz/fuzz_util.h"

namespace evidence = causegate::evidence;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  causegate::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line = causegate::fuzz::AsText(data, size);
  for (auto kind : {evidence::SessionKind::kMain, evidence::SessionKind::kSubagent}) {
    const evidence::LineRecord record = evidence::ParseClaudeLine(line, kind);
    for (const evidence::AssistantBlock& block : record.blocks) {
      if (block.kind != evidence::AssistantBlock::Kind::kToolUse) continue;
      (void)evidence::ExtractToolInputText(block.call.name, block.call.input);
    }
  }
  // The tool-input reader also gets raw text: it must take any input JSON.
  const auto parts = causegate::fuzz::SplitNul(line, 2);
  (void)evidence::ExtractToolInputText(parts[0], parts[1]);
  (void)evidence::Utf8Prefix(line, size / 2);
  return 0;
}
