// One Codex CLI rollout line (evidence/codex_rollout.h), read with both
// ways of finding prompts, and the <hook_prompt> fragment reader.
#include <cstddef>
#include <cstdint>

#include "evidence/codex_rollout.h"
#include "fuzz/fuzz_util.h"

namespace evidence = causegate::evidence;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  causegate::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line = causegate::fuzz::AsText(data, size);
  for (auto prompts : {evidence::CodexPrompts::kEvents, evidence::CodexPrompts::kMessages}) {
    (void)evidence::ParseCodexLine(line, prompts);
  }
  std::string reason;
  (void)evidence::ParseHookPrompt(line, &reason);
  return 0;
}
