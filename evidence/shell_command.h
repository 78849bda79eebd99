// What a shell command prints back from its own text (spec judgement.md
// section 3 rule 4): internal to evidence/, used by the evidence index to
// tell self-made output from real output.
// Tests: tests/unit/evidence/shell_command_test.cc.
#pragma once

#include <string>
#include <string_view>

namespace causegate::evidence {

struct ShellCommandInfo {
  // Text the command supplies and prints back: echo / printf arguments,
  // heredoc bodies, here-strings, inline programs (`python -c`, `node -e`,
  // `bash -c` looked into), joined by '\n'. "" when there is none.
  std::string echoed;
  // The part of `echoed` the command sends into a file (`>`, `>>`, `tee`;
  // not /dev/null): text the agent wrote, which later output may print.
  std::string written;
  // The command starts with a search (grep, rg, ag, ack, zgrep, git grep,
  // find, journalctl, ...): its output is lines of the data searched.
  bool is_search = false;
};

// Best-effort, quote-aware reading of a Bash command line; never fails.
ShellCommandInfo AnalyzeShellCommand(std::string_view command);

}  // namespace causegate::evidence
