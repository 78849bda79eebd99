// AnalyzeShellCommand on the commands agents run: which of their words are
// the agent's own text, and that a search's are not.
#include "evidence/shell_command.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace causegate::evidence {
namespace {

// What a command supplies is every word outside a search: `has` must be in
// it (each line a word or program as the shell would pass it), `lacks` not.
TEST_CASE("shell commands: the text the agent supplies", "[shell_command]") {
  struct Case {
    const char* command;
    std::vector<std::string> has;
    std::vector<std::string> lacks;
  };
  const std::vector<Case> cases = {
      // probes: their words, nothing more
      {"dmesg | tail -100", {"dmesg", "tail", "-100"}, {}},
      {"kubectl logs pod/api-7 --previous 2>&1 | tail -50", {"pod/api-7", "--previous"}, {"2>&1"}},
      // a search's pattern and paths are not the agent's text
      {"grep -n \"out of memory\" train.log", {}, {"out of memory", "train.log"}},
      {"rg -i 'connection refused' logs/", {}, {"connection refused"}},
      {"git --no-pager grep -n TODO", {}, {"TODO"}},
      {"cd /srv/app && grep -c ERROR app.log", {"/srv/app"}, {"ERROR"}},
      {"sudo journalctl -u trainer -g 'oom' --since today", {}, {"oom"}},
      {"LC_ALL=C grep -a panic dump.txt", {}, {"panic"}},
      {"cat /var/log/syslog | grep -i oom", {"/var/log/syslog"}, {"oom"}},
      // ... but what runs beside it is
      {"grep -n error a.log; echo 'made up line'", {"made up line"}, {"error"}},
      {"grep -c x <<< \"x marks the spot\"", {"x marks the spot"}, {}},
      // echo, printf, variables, arguments an error message may repeat
      {"echo \"Out of memory: Killed process 4812 (python)\"", {"Out of memory: Killed process 4812 (python)"}, {}},
      {"printf '%s: Killed process %d\\n' \"Out of memory\" 4812", {"%s: Killed process %d\\n", "Out of memory"}, {}},
      {"MSG='disk quota exceeded'; echo $MSG", {"MSG=disk quota exceeded"}, {}},
      {"ls '/var/log/the cache key omits the locale'", {"/var/log/the cache key omits the locale"}, {}},
      {"logger -t app 'worker crashed: OOM' && journalctl -t app -n 1", {"worker crashed: OOM"}, {}},
      // files written
      {"echo 'fake log line' > /tmp/x.log", {"fake log line"}, {"/tmp/x.log"}},
      {"echo 'to tee' | tee /tmp/out.txt", {"to tee", "/tmp/out.txt"}, {}},
      {"sed -i 's/timeout=5/timeout=50/' conf.ini", {"s/timeout=5/timeout=50/"}, {}},
      // heredocs and here-strings
      {"cat > /tmp/fake.log <<'EOF'\nERROR disk full\nEOF\ncat /tmp/fake.log", {"ERROR disk full"}, {}},
      {"cat <<-END | tee out.txt\n\tindented body\n\tEND", {"indented body"}, {}},
      {"cat <<EOF\nno terminator", {"no terminator"}, {}},
      // inline programs, and shells read as the commands they run
      {"python3 -c \"print('CUDA out' + ' of memory')\"", {"print('CUDA out' + ' of memory')"}, {}},
      {"bash -c \"echo 'nested fake'\"", {"nested fake"}, {}},
      {"sh -lc 'grep -r \"real pattern\" /var/log'", {}, {"real pattern"}},
      // quoting does not split words; comments are not words
      {"echo \"a; b && c | d\"", {"a; b && c | d"}, {}},
      {"echo 'x' # trailing comment", {"x"}, {"trailing comment"}},
  };
  for (const Case& c : cases) {
    INFO("command: " << c.command);
    const std::string supplied = AnalyzeShellCommand(c.command).supplied;
    INFO("supplied: " << supplied);
    for (const std::string& word : c.has) CHECK(supplied.find(word) != std::string::npos);
    for (const std::string& word : c.lacks) CHECK(supplied.find(word) == std::string::npos);
  }
  CHECK(AnalyzeShellCommand("").supplied.empty());
}

TEST_CASE("shell command reader survives malformed input", "[shell_command]") {
  const std::vector<std::string> inputs = {
      "echo \"unterminated", "echo 'unterminated", "cat <<", "cat <<''", "echo \\",
      "| | ;; && ||", ">>>>", "<<<", "$($($(", std::string(10000, '('),
      "bash -c 'bash -c \"bash -c \\\"bash -c echo deep\\\"\"'", std::string("a\0b", 3)};
  for (const std::string& input : inputs) {
    INFO("input: " << input.substr(0, 60));
    const ShellCommandInfo info = AnalyzeShellCommand(input);
    CHECK(info.supplied.size() <= input.size() * 2 + 16);
  }
}

}  // namespace
}  // namespace causegate::evidence
