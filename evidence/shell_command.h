// What a shell command carries of the agent's own text (spec judgement.md
// section 3 rule 4): internal to evidence/, used by the evidence index to
// tell self-made output from real output.
// Tests: tests/unit/evidence/shell_command_test.cc.
#pragma once

#include <string>
#include <string_view>

namespace causegate::evidence {

struct ShellCommandInfo {
  // Every word the command line supplies (assignments, arguments, inline
  // programs, `bash -c` programs read as commands), with heredoc bodies and
  // here-strings, joined by '\n'; except the words of a search (grep, rg,
  // find, journalctl, `git grep`, ...): a pattern the agent typed does not
  // make the lines it finds its own.
  std::string supplied;
};

// Best-effort, quote-aware reading of a Bash command line; never fails.
ShellCommandInfo AnalyzeShellCommand(std::string_view command);

}  // namespace causegate::evidence
