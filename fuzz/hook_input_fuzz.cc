// Hook input of every agent (gate/hook_input.h): the first byte picks the
// adapter (or auto-detection), the rest is what the agent would write on
// stdin. A request that parses is answered in each outcome's shape, since
// the answer echoes fields of the input (ids, the agent's dialect).
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_util.h"
#include "gate/hook_input.h"

namespace gate = causegate::gate;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  causegate::fuzz::QuietLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  constexpr gate::Agent kAgents[] = {gate::Agent::kAuto,   gate::Agent::kClaudeCode, gate::Agent::kCodex,
                                     gate::Agent::kGemini, gate::Agent::kCursor,     gate::Agent::kCopilot};
  const gate::Agent agent = kAgents[data[0] % 6];
  const std::string_view text = causegate::fuzz::AsText(data + 1, size - 1);

  (void)gate::IsObserveOnlyInput(text, agent);
  gate::HookRequest request;
  if (!gate::ParseHookInput(text, agent, &request).ok()) return 0;

  causegate::rules::Outcome outcome;
  for (auto action : {causegate::rules::Action::kAllow, causegate::rules::Action::kBlock,
                      causegate::rules::Action::kAllowUnproven}) {
    outcome.action = action;
    outcome.reason = request.prompt;
    outcome.system_message = request.session_id;
    outcome.block_number = 1;
    (void)gate::RenderHookOutput(request, outcome);
  }
  return 0;
}
