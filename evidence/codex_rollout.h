// One line of an OpenAI Codex CLI rollout
// (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl), reduced to the
// same LineRecord a Claude Code line becomes (claude_line.h), so that the
// turn assembly of transcript.cc serves both agents. Internal to evidence/.
//
// Every line is {"timestamp", "type", "payload"} (research notes,
// hook-protocols.md section 3.2; real sample in research/fixtures):
//
//   event_msg user_message            the typed prompt: starts a turn
//   event_msg item_completed          with item.type UserMessage: the typed prompt
//                                     of newer Codex (0.171): starts a turn too, so
//                                     a rollout resumed across versions is read
//                                     turn by turn; where a version writes both
//                                     events for one prompt, the turn assembly
//                                     keeps one (transcript.cc)
//   event_msg task_complete           last_agent_message: the turn's final text
//   response_item message assistant   output_text blocks: narration or final text
//   response_item message user        "<hook_prompt hook_run_id=..>reason</hook_prompt>":
//                                     a Stop hook's block, as stop feedback;
//                                     anything else is injected context
//                                     (AGENTS.md, <environment_context>) or the
//                                     echo of the typed prompt
//   response_item function_call       name, arguments (JSON text), call_id
//   response_item custom_tool_call    name, input (free text, e.g. a patch), call_id
//   response_item local_shell_call    action.command, call_id
//   response_item *_output            call_id, output: text, content items, or the
//                                     older {"output": .., "metadata": {exit_code}}
//
// and everything else (session_meta, turn_context, reasoning, token_count,
// agent_message, exec_command_end, compacted, ...) is ignored. The shell
// command of a call is read from its arguments: a `command` array (the
// script of `bash -lc SCRIPT`, else the words joined), a `command` or `cmd`
// string; other tools show their path, pattern, query or url. Shell tools
// are named "shell" (shell, shell_command, container.exec) or "exec_command"
// and "local_shell" as Codex names them, which the evidence index knows.
//
// Rollouts written before Codex recorded event_msg lines have no
// user_message: read them with CodexPrompts::kMessages, which takes user
// messages that are not injected context as prompts.
// Tests: tests/unit/evidence/codex_rollout_test.cc.
#pragma once

#include <string_view>

#include "evidence/claude_line.h"

namespace causegate::evidence {

enum class CodexPrompts {
  kEvents,    // event_msg user_message or item_completed UserMessage starts a
              // turn (Codex 0.3x and later)
  kMessages,  // response_item user messages do (older rollouts)
};

// Classifies one rollout line (without its '\n'). Never throws; a line that
// is not a JSON object, is nested deeper than kMaxJsonDepth or longer than
// the line limit is kUnreadable. Ill-formed UTF-8 is read with U+FFFD.
LineRecord ParseCodexLine(std::string_view line, CodexPrompts prompts);

// The text of a `<hook_prompt hook_run_id="...">reason</hook_prompt>`
// fragment, XML entities decoded, or false when text is not one.
bool ParseHookPrompt(std::string_view text, std::string* reason);

}  // namespace causegate::evidence
