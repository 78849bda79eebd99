// AnalyzeShellCommand on the commands agents run: what each prints back
// from its own text, what it writes into files, and which are searches.
#include "evidence/shell_command.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace causegate::evidence {
namespace {

TEST_CASE("shell commands: echoed text, written text, searches", "[shell_command]") {
  struct Case {
    const char* command;
    const char* echoed;   // exact expected echoed text
    const char* written;  // exact expected written text
    bool is_search;
  };
  const std::vector<Case> cases = {
      // plain probes print nothing of their own
      {"dmesg | tail -100", "", "", false},
      {"nvidia-smi --query-gpu=memory.used --format=csv", "", "", false},
      {"cat /var/log/syslog | grep -i oom", "", "", false},
      {"kubectl logs pod/api-7 --previous 2>&1 | tail -50", "", "", false},
      // searches
      {"grep -n \"out of memory\" train.log", "", "", true},
      {"rg -i 'connection refused' logs/", "", "", true},
      {"git grep -n TODO", "", "", true},
      {"git --no-pager grep -n TODO", "", "", true},
      {"find . -name '*.log' -mmin -60", "", "", true},
      {"cd /srv/app && grep -c ERROR app.log", "", "", true},
      {"sudo journalctl -u trainer -g 'oom' --since today", "", "", true},
      {"zgrep 'Killed process' /var/log/kern.log.2.gz", "", "", true},
      {"LC_ALL=C grep -a panic dump.txt", "", "", true},
      {"timeout 10 rg foo", "", "", true},
      {"grep -n error a.log; echo ---; tail b.log", "---", "", true},
      // echo and printf
      {"echo \"Out of memory: Killed process 4812 (python)\"",
       "Out of memory: Killed process 4812 (python)", "", false},
      {"echo -e 'a\\tb'", "a\\tb", "", false},
      {"printf '%s\\n' \"NCCL error: unhandled system error\"",
       "%s\\n NCCL error: unhandled system error", "", false},
      {"dmesg | tail -3 && echo 'done: no oom'", "done: no oom", "", false},
      {"/bin/echo hi there", "hi there", "", false},
      // written into a file
      {"echo 'fake log line' > /tmp/x.log", "fake log line", "fake log line", false},
      {"echo 'fake' >> notes.md", "fake", "fake", false},
      {"echo 'fake' 2>&1 >/dev/null", "fake", "", false},
      {"echo 'to tee' | tee /tmp/out.txt", "to tee", "to tee", false},
      {"echo 'first' 1> a.txt", "first", "first", false},
      // heredocs and here-strings
      {"cat <<EOF\nline one\nline two\nEOF", "line one\nline two\n", "", false},
      {"cat > /tmp/fake.log <<'EOF'\nERROR disk full\nEOF\ncat /tmp/fake.log",
       "ERROR disk full\n", "ERROR disk full\n", false},
      {"cat <<-END | tee out.txt\n\tindented body\n\tEND", "indented body\n",
       "indented body\n", false},
      {"python3 - <<PY\nprint('hello from heredoc')\nPY", "print('hello from heredoc')\n", "",
       false},
      {"grep -c x <<< \"x marks the spot\"", "x marks the spot\n", "", true},
      {"cat <<EOF\nno terminator", "no terminator\n", "", false},
      // inline programs
      {"python3 -c \"print('CUDA out of memory')\"", "print('CUDA out of memory')", "", false},
      {"python -u -c 'import sys; print(sys.version)'", "import sys; print(sys.version)", "",
       false},
      {"node -e 'console.log(42)'", "console.log(42)", "", false},
      {"perl -ne 'print if /oom/' kern.log", "", "", false},
      {"bash -c \"echo 'nested fake'\"", "nested fake", "", false},
      {"sh -lc 'echo inner > f.txt'", "inner", "inner", false},
      // quoting does not split segments
      {"echo \"a; b && c | d\"", "a; b && c | d", "", false},
      {"echo 'x' # trailing comment", "x", "", false},
      {"", "", "", false},
  };
  for (const Case& c : cases) {
    INFO("command: " << c.command);
    const ShellCommandInfo info = AnalyzeShellCommand(c.command);
    CHECK(info.echoed == c.echoed);
    CHECK(info.written == c.written);
    CHECK(info.is_search == c.is_search);
  }
}

TEST_CASE("shell command reader survives malformed input", "[shell_command]") {
  const std::vector<std::string> inputs = {
      "echo \"unterminated", "echo 'unterminated", "cat <<", "cat <<''", "echo \\",
      "| | ;; && ||", ">>>>", "<<<", "$($($(", std::string(10000, '('),
      "bash -c 'bash -c \"bash -c \\\"bash -c echo deep\\\"\"'", std::string("a\0b", 3)};
  for (const std::string& input : inputs) {
    INFO("input: " << input.substr(0, 60));
    const ShellCommandInfo info = AnalyzeShellCommand(input);
    CHECK(info.echoed.size() <= input.size() * 2 + 16);
  }
}

}  // namespace
}  // namespace causegate::evidence
