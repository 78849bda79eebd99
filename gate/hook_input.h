// Agent adapters: each coding agent's end-of-turn hook input, read into one
// agent-neutral HookRequest, and the answer written back in the shape that
// agent expects. One file per agent (gate/claude_code.cc, codex.cc,
// gemini.cc, cursor.cc, copilot.cc) behind this interface; the protocols
// are documented in gate/HOOKS.md.
//
// The adapters live in gate/, not in hook/, because both front-ends (the
// `causegate hook` command and the daemon) speak every agent's protocol.
// Tests: tests/unit/gate/hook_input_test.cc and one test file per agent.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "evidence/status.h"
#include "evidence/transcript.h"
#include "evidence/turn.h"
#include "gate/transcript_wait.h"
#include "rules/loop_policy.h"
#include "rules/verdict.h"

namespace causegate::gate {

enum class Agent {
  kAuto,        // detect from the input's fields
  kClaudeCode,  // Stop / SubagentStop
  kCodex,       // OpenAI Codex CLI: Stop / SubagentStop
  kGemini,      // Gemini CLI: AfterAgent
  kCursor,      // Cursor: stop, plus the observe-only events it records
  kCopilot,     // GitHub Copilot CLI: agentStop / Stop / subagentStop
};

const char* AgentName(Agent agent);
bool ParseAgentName(std::string_view name, Agent* agent);
// "auto, claude-code, codex, gemini, cursor, copilot": for --help texts.
const char* AgentNameList();

// What a hook call asks of the gate.
enum class HookKind {
  kStop,     // the agent wants to end its turn: judge it
  kObserve,  // an observe-only event (Cursor, Copilot): store what it shows
             // in the session log (gate/session_log.h), answer, judge nothing
};

// What an observe-only event shows, in Claude Code's terms so that one
// transcript reader serves every agent.
struct ObservedEvent {
  enum class Kind {
    kPrompt,         // the user's prompt (or our own follow-up, see HOOKS.md)
    kToolCall,       // one tool call with its result
    kAssistantText,  // an assistant message's text
  };
  Kind kind = Kind::kPrompt;
  std::string text;         // kPrompt, kAssistantText
  std::string tool_name;    // kToolCall: Claude Code's name where one fits
                            // (Bash, Read, MultiEdit), else the agent's own
  std::string tool_input;   // kToolCall: the input as a JSON object text
  std::string tool_output;  // kToolCall: the result text
  bool tool_error = false;
};

struct HookRequest {
  Agent agent = Agent::kClaudeCode;
  HookKind kind = HookKind::kStop;
  std::string event;                 // the agent's own event name
  std::string session_id;            // Cursor: conversation_id
  std::string cwd;
  std::string transcript_path;       // the session file ("" if none)
  std::string agent_transcript_path; // SubagentStop: the subagent's own file
  std::string agent_id;              // Claude Code: the subagent's id ("" if none)
  std::optional<std::string> last_assistant_message;
  bool stop_hook_active = false;     // the agent is continuing after a block
  bool is_subagent = false;          // a subagent's stop (SubagentStop, subagentStop)
  bool subagent() const { return is_subagent; }

  // Agent-specific fields, read when the agent sends them.
  std::string turn_id;               // Codex: the turn
  std::string prompt;                // Gemini AfterAgent: the user's request
  std::optional<int> loop_count;     // Cursor stop: follow-ups already sent
  std::string status;                // Cursor stop: completed, aborted, error
  std::string stop_reason;           // Copilot: why the agent stops
  std::string generation_id;         // Cursor: changes with every user message
  bool camel_case = false;           // Copilot: the camelCase dialect (agentStop)
  std::optional<ObservedEvent> observed;  // kObserve: what to record (none: nothing)

  // Not from the input: the state folder the front-end names
  // (GateOptions::state_dir, set by RunGate); "" = StateDir().
  std::string state_dir;
};

// Parses hook input. With Agent::kAuto the agent is detected from the
// input's fields (DetectAgent). Errors (the hook then fails open): over the
// size or depth limits, not JSON, not an object, wrong field types, an
// event the agent's adapter does not handle.
Status ParseHookInput(std::string_view text, Agent agent, HookRequest* out);

// True when the input is an observe-only event (Cursor, Copilot) that
// judges nothing, so a front-end can skip compiling the rule packs.
bool IsObserveOnlyInput(std::string_view text, Agent agent);

// The agent's answer: a JSON object text, or "" for a silent allow. For an
// observe-only event, the acknowledgement that event expects ("" for most).
std::string RenderHookOutput(const HookRequest& request, const rules::Outcome& outcome);

// Reads the turn to judge for a stop request, from where its agent keeps
// it: the transcript (Claude Code, Codex), the Gemini chat file, or the
// session log that the observe-only events wrote (Cursor, Copilot). The
// final message the agent sent inline (last_assistant_message,
// prompt_response, response) replaces the transcript's. Errors name the
// agent and say what is missing; the gate then fails open.
// With TranscriptWait::kWhileLagging, a Claude Code or Copilot turn that
// the agent is still writing is read again for a bounded time, sleeping on
// the calling thread (gate/transcript_wait.h); a whole turn is read once.
Status LoadTurn(const HookRequest& request, TranscriptWait wait, evidence::LastTurn* out);

// Blocks the gate already sent in this turn (rules/loop_policy.h), from
// every signal the agent gives: the transcript's feedback lines, the
// agent's continuation flag, Cursor's loop_count, and the per-session
// counter (gate/loop_state.h) that agents without a cap of their own need.
int PriorBlocksFor(const HookRequest& request, const evidence::Turn& turn);

// After a decision: keeps the per-session counter, and logs the audit
// record (one JSON line on stderr at warn level) when a turn is let
// through unproven. Never fails; a counter that cannot be written is
// logged and forgotten.
void RecordDecision(const HookRequest& request, const evidence::Turn& turn,
                    const rules::Verdict& verdict, const rules::Outcome& outcome, int prior_blocks);

// The audit record of a turn let through unproven, as one JSON object text.
std::string UnprovenAuditRecord(const HookRequest& request, const rules::Verdict& verdict,
                                int prior_blocks);

}  // namespace causegate::gate
