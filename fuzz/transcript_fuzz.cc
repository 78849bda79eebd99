// Whole transcript files through the readers the hook and `check` use
// (evidence/transcript.h): format detection, the backward read of the last
// turn with its lazily read history, and the forward read of every turn.
// The input is the file; Claude Code and Codex lines both appear in the
// seeds, so either format is reached.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "evidence/transcript.h"
#include "fuzz/fuzz_util.h"

namespace evidence = causegate::evidence;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  causegate::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = causegate::fuzz::ScratchDir() + "/session.jsonl";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  evidence::TranscriptFormat format;
  (void)evidence::DetectTranscriptFormat(path, &format);
  for (auto kind : {evidence::SessionKind::kMain, evidence::SessionKind::kSubagent}) {
    evidence::LastTurn last;
    if (evidence::ReadLastTurn(path, kind, &last).ok()) {
      evidence::PastTurn past;
      // Every earlier turn; a file of n bytes cannot hold more than n turns.
      for (std::size_t i = 0; i <= size && last.history->LoadOlder(&past); ++i) {
      }
    }
    (void)evidence::ForEachTurn(path, kind, [](const evidence::Turn&, int) { return true; });
  }
  return 0;
}
