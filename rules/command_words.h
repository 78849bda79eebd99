// Reading a tool call's command line as words, for protocol tracking
// (rules/protocol_steps.h): a short label people recognise ("dmesg",
// "kubectl describe", "Read train.log") and the comparison that finds a
// control, a re-run of an earlier command with exactly one flag or value
// changed. Best effort and quote-aware; never fails. Not a shell parser:
// expansions, globs and subshells are left as they are written.
// Tests: tests/unit/rules/protocol_command_words_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace causegate::rules {

// A command line split into pipeline or list segments (on unquoted |, ||,
// &&, ;, & and newlines), each a list of words with quotes removed.
using CommandWords = std::vector<std::vector<std::string>>;
CommandWords SplitCommand(std::string_view command);

// command with the shell operators inside quotes (| ; & < >) turned
// into spaces, so that patterns over the command (the step rules) see only
// the operators the shell sees: grep -E 'a|b' x.log is one command.
std::string MaskQuotedOperators(std::string_view command);

// True for the tool names of a shell: Bash, shell, run_shell_command, ...
bool IsShellTool(std::string_view tool);

// A short name for a call: for a shell command the program that does the
// work (past sudo, env assignments, `cd dir &&`, ssh host) and, for tools
// with subcommands (git, kubectl, gh, docker, ...), the subcommand; for
// other tools the tool name and the base name of its argument.
std::string CallLabel(std::string_view tool, std::string_view command);

// True when `after` re-runs `before` with exactly one variable changed: the
// same segments but one, and in that one the same program with one word
// changed (a value, a KEY=VALUE override), or one flag added or removed (a
// flag alone, or "--flag value"). Identical commands, a changed program and
// changes to an output filter (tail, head, grep, ...) are not. *changed
// (may be null) gets the difference: "--bs 8 -> 4", "+ --no-amp", "- --amp".
bool OneVariableChange(std::string_view before, std::string_view after, std::string* changed);

}  // namespace causegate::rules
