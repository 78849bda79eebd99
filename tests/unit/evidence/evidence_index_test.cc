// EvidenceIndex::Locate: each Source, echo against grep, text written to a
// file and read back, the spec's classification order, offsets into raw
// output, and that earlier turns are read only when needed; the same
// answers when a message's fragments are announced together (Expect), each
// looked up once.
#include "evidence/evidence_index.h"

#include <catch2/catch.hpp>
#include <deque>
#include <string>
#include <vector>

#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::json;

ToolCall Call(const std::string& name, const json& input, const std::string& output) {
  ToolCall call;
  static int next_id = 0;
  call.id = "toolu_" + std::to_string(++next_id);
  call.name = name;
  call.input = input.dump();
  if (input.contains("command")) call.command = input["command"];
  if (input.contains("file_path")) call.command = input["file_path"];
  if (input.contains("pattern")) call.command = input["pattern"];
  call.output = output;
  call.has_result = true;
  return call;
}

ToolCall Bash(const std::string& command, const std::string& output) {
  return Call("Bash", {{"command", command}}, output);
}

// Serves prepared turns and counts how often it was asked.
class FakeHistory final : public History {
 public:
  explicit FakeHistory(std::vector<PastTurn> turns) : turns_(std::move(turns)) {}
  bool LoadOlder(PastTurn* out) override {
    ++calls_;
    if (next_ >= turns_.size()) return false;
    *out = turns_[next_++];
    return true;
  }
  int calls() const { return calls_; }

 private:
  std::vector<PastTurn> turns_;
  std::size_t next_ = 0;
  int calls_ = 0;
};

PastTurn Past(int back, const std::string& prompt, std::vector<ToolCall> calls) {
  PastTurn past;
  past.prompt = prompt;
  past.turns_back = back;
  for (ToolCall& call : calls) call.turns_back = back;
  past.tool_calls = std::move(calls);
  return past;
}

TEST_CASE("each source, in the spec's order", "[evidence_index]") {
  Turn turn;
  turn.prompt = "Why did training die? The log said 'loss jumps after step 200'.";
  turn.tool_calls = {
      Bash("dmesg | tail -2",
           "[101.2] Out of memory: Killed process 4812 (python)\n[101.3] oom_reaper: reaped"),
      Bash("echo 'NCCL error: unhandled system error'", "NCCL error: unhandled system error"),
      Call("Read", {{"file_path", "/home/ml/runs/lr-sweep-7/train.log"}}, "step 1 ok"),
  };
  struct Case {
    const char* fragment;
    Source source;
    int call;  // index into turn.tool_calls, -1 for none
  };
  const std::vector<Case> cases = {
      {"Out of memory: Killed process 4812 (python)", Source::kToolOutput, 0},
      {"  out   OF memory:\tkilled  PROCESS 4812 ", Source::kToolOutput, 0},
      {"ＯＵＴ ｏｆ ｍｅｍｏｒｙ", Source::kToolOutput, 0},
      {"NCCL error: unhandled system error", Source::kSelfMadeOutput, 1},
      {"/home/ml/runs/lr-sweep-7/train.log", Source::kToolInput, 2},
      {"dmesg | tail -2", Source::kToolInput, 0},
      {"loss jumps after step 200", Source::kUserMessage, -1},
      {"segfault at 0000000000000010", Source::kNowhere, -1},
      {"", Source::kNowhere, -1},
      {" \t\u200b ", Source::kNowhere, -1},
  };
  for (const bool announced : {false, true}) {
    INFO((announced ? "announced together" : "one at a time"));
    EvidenceIndex index(turn, nullptr);
    if (announced) {
      std::vector<std::string_view> all;
      for (const Case& c : cases) all.emplace_back(c.fragment);
      index.Expect(all);
    }
    for (const Case& c : cases) {
      INFO("fragment: " << c.fragment);
      const Sighting s = index.Locate(c.fragment);
      CHECK(SourceName(s.source) == std::string(SourceName(c.source)));
      if (c.call < 0) {
        CHECK(s.call == nullptr);
      } else {
        CHECK(s.call == &turn.tool_calls[static_cast<std::size_t>(c.call)]);
      }
    }
    CHECK(index.turns_loaded() == 0);
  }
}

TEST_CASE("a fragment is looked up once: asked again, the answer stands", "[evidence_index]") {
  Turn turn;
  turn.prompt = "why?";
  turn.tool_calls = {Bash("dmesg", "Out of memory: Killed process 4812 (python)")};
  FakeHistory history({Past(1, "earlier", {Bash("cat old.log", "disk quota exceeded on /scratch")})});
  EvidenceIndex index(turn, &history);
  index.Expect({"disk quota exceeded", "Out of memory: Killed", "segfault at 0x10"});
  // Found a turn back: the history is read once, for the first question.
  const Sighting first = index.Locate("disk quota exceeded");
  CHECK(first.source == Source::kToolOutput);
  CHECK(first.call->turns_back == 1);
  const int asked = history.calls();
  for (int claim = 0; claim < 4; ++claim) {
    CHECK(index.Locate("disk quota exceeded").call == first.call);
    CHECK(index.Locate("DISK quota   exceeded").call == first.call);  // folds to the same needle
    CHECK(index.Locate("segfault at 0x10").source == Source::kNowhere);
  }
  CHECK(index.Locate("Out of memory: Killed").offset == 0);
  CHECK(history.calls() == asked + 1);  // the nowhere fragment read to the end once
  // Not announced: a set of its own, answered the same way.
  CHECK(index.Locate("Killed process 4812").source == Source::kToolOutput);
}

TEST_CASE("echo prints back, grep searches", "[evidence_index]") {
  struct Case {
    const char* name;
    std::string command;
    std::string output;
    const char* fragment;
    Source source;
  };
  const std::vector<Case> cases = {
      {"grep whose pattern is the quote", "grep -n \"out of memory\" train.log",
       "812:RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", "out of memory",
       Source::kToolOutput},
      {"grep line quoted whole", "grep -n \"out of memory\" train.log",
       "812:RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB",
       "CUDA out of memory. Tried to allocate 2.00 GiB", Source::kToolOutput},
      {"rg", "rg -i 'connection refused' logs/", "logs/api.log:12: connection refused",
       "connection refused", Source::kToolOutput},
      {"echo", "echo \"Killed process 4812 (python)\"", "Killed process 4812 (python)",
       "Killed process 4812 (python)", Source::kSelfMadeOutput},
      {"printf", "printf 'disk quota exceeded\\n'", "disk quota exceeded\n",
       "disk quota exceeded", Source::kSelfMadeOutput},
      {"heredoc", "cat <<EOF\nnfs: server fs01 not responding\nEOF",
       "nfs: server fs01 not responding", "nfs: server fs01 not responding",
       Source::kSelfMadeOutput},
      {"here-string into a search", "grep -o 'fs01.*' <<< 'nfs: server fs01 not responding'",
       "fs01 not responding", "fs01 not responding", Source::kSelfMadeOutput},
      {"python -c print", "python3 -c \"print('Segmentation fault (core dumped)')\"",
       "Segmentation fault (core dumped)", "Segmentation fault (core dumped)",
       Source::kSelfMadeOutput},
      {"echo after a search", "grep -c err app.log; echo 'root cause found: bad config'",
       "3\nroot cause found: bad config", "root cause found: bad config",
       Source::kSelfMadeOutput},
      {"search output beside an echo", "grep -n panic app.log; echo ---",
       "17: panic: runtime error: index out of range\n---",
       "panic: runtime error: index out of range", Source::kToolOutput},
      {"echo of a variable is real output", "echo \"$CUDA_VISIBLE_DEVICES\"", "0,1,2,3",
       "0,1,2,3", Source::kToolOutput},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Turn turn;
    turn.prompt = "why?";
    turn.tool_calls = {Bash(c.command, c.output)};
    EvidenceIndex index(turn, nullptr);
    const Sighting s = index.Locate(c.fragment);
    CHECK(SourceName(s.source) == std::string(SourceName(c.source)));
  }
  // The Grep tool: its pattern is input, its output evidence.
  Turn turn;
  turn.tool_calls = {Call("Grep", {{"pattern", "Killed process"}, {"output_mode", "content"}},
                          "/var/log/kern.log:88:Out of memory: Killed process 4812")};
  EvidenceIndex index(turn, nullptr);
  CHECK(index.Locate("Killed process").source == Source::kToolOutput);
  CHECK(index.Locate("output_mode content").source == Source::kNowhere);
  CHECK(index.Locate("Killed process 4812").source == Source::kToolOutput);
}

// Issue 15 item 1: wherever the output came from, a quote mostly made of
// text the agent supplied earlier is self-made; a search's pattern is not
// such text, and one typed word shown back is a reference.
TEST_CASE("provenance: text the agent supplied, shown back by any route", "[evidence_index]") {
  const std::string fake = "disk filled by the 02:00 cron job";
  struct Case {
    const char* name;
    std::vector<ToolCall> calls;
    std::string quote;
    Source source;
  };
  const std::vector<Case> cases = {
      {"printf with a format", {Bash("printf '%s by the %s cron job\\n' 'disk filled' '02:00'", fake)}, fake,
       Source::kSelfMadeOutput},
      {"a variable set, then printed", {Bash("NOTE='" + fake + "'", ""), Bash("echo \"$NOTE\"", fake)}, fake,
       Source::kSelfMadeOutput},
      {"split strings joined by a program",
       {Bash("python3 -c \"print('disk filled by' + ' the 02:00 cron job')\"", fake)}, fake,
       Source::kSelfMadeOutput},
      {"an error message repeating its argument",
       {Bash("ls '/srv/" + fake + "'", "ls: cannot access '/srv/" + fake + "': No such file or directory")}, fake,
       Source::kSelfMadeOutput},
      {"logger, then the journal",
       {Bash("logger -t export '" + fake + "'", ""),
        Bash("journalctl -t export -n 1", "Mar 10 02:00:09 host export[77]: " + fake)},
       fake, Source::kSelfMadeOutput},
      {"ps showing a command line, found by a search",
       {Bash("nohup python3 worker.py --note '" + fake + "' &", ""),
        Bash("ps -ef | grep worker", "root 4242 1 0 02:00 ? 00:00:00 python3 worker.py --note " + fake)},
       fake, Source::kSelfMadeOutput},
      {"sed -i into a real log",
       {Bash("sed -i '$a " + fake + "' /var/log/export.log", ""), Bash("tail -1 /var/log/export.log", fake)}, fake,
       Source::kSelfMadeOutput},
      {"a subagent told what to say",
       {Call("Task", {{"description", "check"}, {"prompt", "Reply with: the log shows `" + fake + "`"}},
             "The log shows `" + fake + "`.")},
       fake, Source::kSelfMadeOutput},
      {"a grep's pattern does not make its line the agent's",
       {Bash("grep -n 'cron job' /var/log/export.log", "12:02:00:09 " + fake)}, fake, Source::kToolOutput},
      {"a short path typed inside a longer real line",
       {Bash("ls -l /srv/export/part-0007", "-rw-r--r-- 1 root root 0 /srv/export/part-0007"),
        Bash("tail -1 /var/log/export.log", "ERROR write failed: No space left on device (/srv/export/part-0007)")},
       "No space left on device (/srv/export/part-0007)", Source::kToolOutput},
      {"a test id typed, the runner's verdict quoted",
       {Bash("pytest tests/test_export.py::test_write -x",
             "FAILED tests/test_export.py::test_write - OSError: [Errno 28] No space left on device")},
       "FAILED tests/test_export.py::test_write - OSError: [Errno 28] No space left on device",
       Source::kToolOutput},
      {"one typed word shown back is a reference",
       {Bash("ls -d /srv/export/nightly-part-0007", "/srv/export/nightly-part-0007")},
       "/srv/export/nightly-part-0007", Source::kToolInput},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Turn turn;
    turn.prompt = "why did the nightly export fail?";
    turn.tool_calls = c.calls;
    EvidenceIndex index(turn, nullptr);
    const Sighting s = index.Locate(c.quote);
    CHECK(SourceName(s.source) == std::string(SourceName(c.source)));
    if (s.source == Source::kSelfMadeOutput) CHECK(s.supplied_share >= kSelfMadeShare);
    if (s.source == Source::kToolOutput) CHECK(s.supplied_share < kSelfMadeShare);
  }
}

TEST_CASE("text the agent wrote to a file and read back is self-made", "[evidence_index]") {
  const std::string fake = "FATAL: checkpoint shard 3 is corrupt";
  struct Case {
    const char* name;
    std::vector<ToolCall> calls;
    Source source;
  };
  const std::vector<Case> cases = {
      {"Write then Read",
       {Call("Write", {{"file_path", "/tmp/notes.md"}, {"content", "notes\n" + fake + "\n"}},
             "File created successfully at: /tmp/notes.md"),
        Call("Read", {{"file_path", "/tmp/notes.md"}}, "     1\xe2\x86\x92notes\n     2\xe2\x86\x92" + fake)},
       Source::kSelfMadeOutput},
      {"Write then cat",
       {Call("Write", {{"file_path", "/tmp/x.log"}, {"content", fake}}, "ok"),
        Bash("cat /tmp/x.log", fake)},
       Source::kSelfMadeOutput},
      {"Write then grep over it",
       {Call("Write", {{"file_path", "/tmp/x.log"}, {"content", fake}}, "ok"),
        Bash("grep FATAL /tmp/x.log", fake)},
       Source::kSelfMadeOutput},
      {"Edit new_string",
       {Call("Edit",
             {{"file_path", "ckpt.py"}, {"old_string", "pass"}, {"new_string", "raise IOError('" + fake + "')"}},
             "The file ckpt.py has been updated."),
        Bash("python ckpt.py", "OSError: " + fake)},
       Source::kSelfMadeOutput},
      {"MultiEdit edits",
       {Call("MultiEdit",
             {{"file_path", "a.py"},
              {"edits", json::array({{{"old_string", "a"}, {"new_string", "b"}},
                                     {{"old_string", "c"}, {"new_string", fake}}})}},
             "ok"),
        Bash("cat a.py", fake)},
       Source::kSelfMadeOutput},
      {"shell heredoc into a file, read by a later call",
       {Bash("cat > /tmp/fake.log <<'EOF'\n" + fake + "\nEOF", ""), Bash("tail /tmp/fake.log", fake)},
       Source::kSelfMadeOutput},
      {"echo redirected, then read",
       {Bash("echo '" + fake + "' >> /tmp/fake.log", ""), Bash("cat /tmp/fake.log", fake)},
       Source::kSelfMadeOutput},
      {"read before the write is real",
       {Bash("tail /var/log/ckpt.log", fake),
        Call("Write", {{"file_path", "REPORT.md"}, {"content", "Found: " + fake}}, "ok")},
       Source::kToolOutput},
      {"output after an echo of the same text is self-made, whatever printed it",
       {Bash("echo '" + fake + "'", fake),
        Bash("journalctl -u ckpt | tail -1", "Mar 10 ckpt[12]: " + fake)},
       Source::kSelfMadeOutput},
      {"real output before the echo stays real",
       {Bash("journalctl -u ckpt | tail -1", "Mar 10 ckpt[12]: " + fake),
        Bash("echo '" + fake + "' >> notes.md", "")},
       Source::kToolOutput},
      {"any output after the write is self-made",
       {Call("Write", {{"file_path", "/tmp/x.log"}, {"content", fake}}, "ok"),
        Bash("journalctl -u ckpt | tail -1", "Mar 10 ckpt[12]: " + fake)},
       Source::kSelfMadeOutput},
      {"written but never printed is input only",
       {Call("Write", {{"file_path", "/tmp/x.log"}, {"content", fake}}, "ok")},
       Source::kToolInput},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Turn turn;
    turn.prompt = "why does loading the checkpoint fail?";
    turn.tool_calls = c.calls;
    EvidenceIndex index(turn, nullptr);
    const Sighting s = index.Locate(fake);
    CHECK(SourceName(s.source) == std::string(SourceName(c.source)));
    if (s.source == Source::kToolOutput || s.source == Source::kSelfMadeOutput) {
      REQUIRE(s.call != nullptr);
      CHECK(s.call->output.compare(s.offset, fake.size(), fake) == 0);
    }
  }
}

TEST_CASE("earlier turns are loaded one at a time, only when needed", "[evidence_index]") {
  Turn turn;
  turn.prompt = "and why is it slow now?";
  turn.tool_calls = {Bash("uptime", "load average: 31.02, 29.80, 27.11")};
  std::vector<PastTurn> past = {
      Past(1, "check the db", {Bash("psql -c 'select 1'", "psql: error: connection refused")}),
      Past(2, "the nightly job failed with 'exit status 137' again",
           {Bash("kubectl describe pod etl-1", "Last State: Terminated\n  Reason: OOMKilled")}),
      Past(3, "look at the disks",
           {Bash("echo 'No space left on device'", "No space left on device"),
            Bash("df -h /data", "/dev/sdb1  2.0T  2.0T  0  100% /data")}),
  };

  SECTION("found in the judged turn: no history read") {
    FakeHistory history(past);
    EvidenceIndex index(turn, &history);
    const Sighting s = index.Locate("load average: 31.02");
    CHECK(s.source == Source::kToolOutput);
    CHECK(s.call == &turn.tool_calls[0]);
    CHECK(history.calls() == 0);
    CHECK(index.turns_loaded() == 0);
  }
  SECTION("found two turns back: two turns read") {
    FakeHistory history(past);
    EvidenceIndex index(turn, &history);
    const Sighting s = index.Locate("Reason: OOMKilled");
    CHECK(s.source == Source::kToolOutput);
    REQUIRE(s.call != nullptr);
    CHECK(s.call->turns_back == 2);
    CHECK(s.call->output.compare(s.offset, 17, "Reason: OOMKilled") == 0);
    CHECK(history.calls() == 2);
    CHECK(index.turns_loaded() == 2);
    // A later look-up of the judged turn reads nothing more.
    CHECK(index.Locate("29.80, 27.11").source == Source::kToolOutput);
    CHECK(history.calls() == 2);
    // One found in a loaded turn needs no new read either.
    CHECK(index.Locate("connection refused").source == Source::kToolOutput);
    CHECK(history.calls() == 2);
  }
  SECTION("not found: the whole history, once") {
    FakeHistory history(past);
    EvidenceIndex index(turn, &history);
    CHECK(index.Locate("exit status 137").source == Source::kUserMessage);
    CHECK(index.turns_loaded() == 3);
    CHECK(history.calls() == 4);  // three turns and the final "no more"
    CHECK(index.Locate("No space left on device").source == Source::kSelfMadeOutput);
    CHECK(index.Locate("kubectl describe pod etl-1").source == Source::kToolInput);
    CHECK(index.Locate("nothing like this anywhere").source == Source::kNowhere);
    CHECK(history.calls() == 4);
  }
  SECTION("self-made in the judged turn, real further back") {
    Turn echoing = turn;
    echoing.tool_calls.push_back(Bash("echo 'psql: error: connection refused'",
                                      "psql: error: connection refused"));
    FakeHistory history(past);
    EvidenceIndex index(echoing, &history);
    const Sighting s = index.Locate("psql: error: connection refused");
    CHECK(s.source == Source::kToolOutput);
    REQUIRE(s.call != nullptr);
    CHECK(s.call->turns_back == 1);
  }
  SECTION("a null history is an empty one") {
    EvidenceIndex index(turn, nullptr);
    CHECK(index.Locate("Reason: OOMKilled").source == Source::kNowhere);
    CHECK(index.turns_loaded() == 0);
  }
}

TEST_CASE("offsets point into the raw output", "[evidence_index]") {
  struct Case {
    const char* name;
    std::string output;
    const char* fragment;
    std::size_t offset;
  };
  const std::vector<Case> cases = {
      {"first line", "Killed process 12", "killed process", 0},
      {"later line", "line one\nline two\n  Killed  process 12", "killed process 12", 20},
      {"mid word run", "abc   def ghi", "def ghi", 6},
      {"after blank lines", "\n\n   \n x y z", "y z", 9},
      {"after crlf", "a\r\nb\r\nneedle here", "needle", 6},
      {"after non-ASCII", "r\xc3\xa9sum\xc3\xa9 \xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3 ok",
       "ok", 22},
      {"non-ASCII word start", "x \xef\xbc\xaf\xef\xbc\xaf\xef\xbc\xad fail", "oom fail", 2},
      {"inside a non-ASCII word", "x \xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3",
       "\xe4\xb8\x8d\xe8\xb6\xb3", 8},
      {"after a non-ASCII char in a word", "     2\xe2\x86\x92" "FATAL: x", "fatal: x", 9},
      {"after a zero-width space", "a \xe2\x80\x8b\xe2\x80\x8b" "needle", "needle", 8},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Turn turn;
    turn.tool_calls = {Bash("run", c.output)};
    EvidenceIndex index(turn, nullptr);
    const Sighting s = index.Locate(c.fragment);
    REQUIRE(s.source == Source::kToolOutput);
    CHECK(s.offset == c.offset);
    CHECK(s.offset <= c.output.size());
  }
}

TEST_CASE("SourceName names every source", "[evidence_index]") {
  CHECK(std::string(SourceName(Source::kToolOutput)) == "tool-output");
  CHECK(std::string(SourceName(Source::kSelfMadeOutput)) == "self-made-output");
  CHECK(std::string(SourceName(Source::kToolInput)) == "tool-input");
  CHECK(std::string(SourceName(Source::kUserMessage)) == "user-message");
  CHECK(std::string(SourceName(Source::kNowhere)) == "nowhere");
}

}  // namespace
}  // namespace causegate::evidence
