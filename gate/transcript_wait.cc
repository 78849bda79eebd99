// The per-agent bound of gate/transcript_wait.h and its override. The
// variable is read only when a first read lagged, so a stop whose
// transcript is whole never looks at the environment.
#include "gate/transcript_wait.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <system_error>

#include "gate/hook_input.h"

namespace causegate::gate {
namespace {

// CAUSEGATE_TRANSCRIPT_WAIT_MS, or nothing when it is unset or invalid.
std::optional<std::chrono::milliseconds> WaitFromEnvironment() {
  const char* value = std::getenv(kTranscriptWaitEnv);
  if (value == nullptr) return std::nullopt;
  const std::string_view text(value);
  long long ms = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
  if (ec != std::errc() || end != text.data() + text.size() || ms < 0 || ms > kMaxTranscriptWait.count()) {
    spdlog::warn("{}=\"{}\" ignored: not a whole number of milliseconds from 0 to {}", kTranscriptWaitEnv, text,
                 kMaxTranscriptWait.count());
    return std::nullopt;
  }
  return std::chrono::milliseconds(ms);
}

}  // namespace

bool NotWrittenYet(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return errno == ENOENT;
  return S_ISREG(st.st_mode) && st.st_size == 0;
}

std::chrono::milliseconds TranscriptWaitBound(Agent agent) {
  std::chrono::milliseconds bound{0};
  switch (agent) {
    case Agent::kAuto:
    case Agent::kClaudeCode: bound = kClaudeCodeTranscriptWait; break;
    case Agent::kCopilot: bound = kCopilotTranscriptWait; break;
    case Agent::kCodex:
    case Agent::kGemini:
    case Agent::kCursor: return bound;
  }
  return WaitFromEnvironment().value_or(bound);
}

}  // namespace causegate::gate
