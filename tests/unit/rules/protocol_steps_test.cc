#include "rules/protocol_steps.h"

#include <catch2/catch.hpp>

#include "evidence/limits.h"
#include "rules/prefetched_history.h"
#include "rules/verdict.h"
#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

evidence::ToolCall Call(const std::string& id, const std::string& tool, const std::string& command,
                        const std::string& output = "", bool is_error = false) {
  evidence::ToolCall c;
  c.id = id;
  c.name = tool;
  c.command = command;
  c.output = output;
  c.is_error = is_error;
  c.has_result = true;
  return c;
}

TEST_CASE("Every tool call gets its protocol step from the step rules") {
  struct Row {
    const char* tool;
    const char* command;
    CallStep step;
    const char* probe_kind;
  };
  const Row rows[] = {
      // probes, one or more per kind
      {"Bash", "ps aux | grep -E '(python|torchrun)' | grep -v grep", CallStep::kProbe, "process"},
      {"Bash", "py-spy dump --pid 811", CallStep::kProbe, "process"},
      {"Bash", "kubectl -n jobs describe pod trainer-3", CallStep::kProbe, "process"},
      {"Bash", "sacct -j 7712 --format=JobID,State,ExitCode", CallStep::kProbe, "process"},
      {"Bash", "dmesg -T | tail -100", CallStep::kProbe, "system-log"},
      {"Bash", "journalctl -u trainer --since '2 hours ago' | tail -40", CallStep::kProbe, "system-log"},
      {"Bash", "ssh node4 'dmesg | grep -i oom'", CallStep::kProbe, "system-log"},
      {"Bash", "nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv", CallStep::kProbe, "gpu"},
      {"Bash", "df -h /mnt/scratch", CallStep::kProbe, "disk"},
      {"Bash", "du -sh /mnt/scratch/* | sort -h | tail -3", CallStep::kProbe, "disk"},
      {"Bash", "tail -n 300 runs/r12/train.log", CallStep::kProbe, "app-log"},
      {"Bash", "grep -n -E 'loss (nan|inf)|grad_norm=inf' runs/r12/train.log", CallStep::kProbe, "app-log"},
      {"Bash", "cmake --build out 2>&1 | tail -30", CallStep::kProbe, "app-log"},
      {"Bash", "kubectl -n web logs deploy/api --since=15m | grep -c ERROR", CallStep::kProbe, "app-log"},
      {"Read", "/home/ml/runs/r12/stderr.log", CallStep::kProbe, "app-log"},
      {"Bash", "ls -la /mnt/scratch/r12/checkpoints/", CallStep::kProbe, "artefact"},
      {"Bash", "cat configs/r12.yaml", CallStep::kProbe, "config"},
      {"Bash", "grep -n protobuf CMakeLists.txt", CallStep::kProbe, "config"},
      {"Read", "/home/ml/configs/r12.yaml", CallStep::kProbe, "config"},
      {"Read", "/home/ml/trainer/loop.py", CallStep::kProbe, "code"},
      {"Grep", "def save_checkpoint", CallStep::kProbe, "code"},
      {"Bash", "git log --oneline -8 -- trainer/", CallStep::kProbe, "code"},
      {"Bash", "psql -c 'SELECT count(*) FROM pg_stat_activity'", CallStep::kProbe, "service"},
      // smoke tests
      {"Bash", "python train.py --config c.yaml --batch-size 1 --max-steps 1", CallStep::kSmoke, ""},
      {"Bash", "CUDA_VISIBLE_DEVICES=0 python train.py --max-steps 20", CallStep::kSmoke, ""},
      {"Bash", "python train.py --lr 0 --max-steps 50", CallStep::kSmoke, ""},
      {"Bash", "python train.py --synthetic-data --max-steps 30", CallStep::kSmoke, ""},
      {"Bash", "python -m pytest tests/test_loader.py -x -k shuffle", CallStep::kSmoke, ""},
      {"Bash", "go test ./store -run TestCompaction -count 30", CallStep::kSmoke, ""},
      {"Bash", "for s in 1 2 3; do python -m pytest tests/t.py -p randomly --randomly-seed=$s -q; done", CallStep::kSmoke, ""},
      // controls the rules recognise
      {"Bash", "python train.py --no-amp", CallStep::kControl, ""},
      {"Bash", "git bisect start HEAD v2.0.1", CallStep::kControl, ""},
      // edits
      {"Edit", "/home/ml/trainer/loop.py", CallStep::kEdit, ""},
      {"Write", "/home/ml/configs/fix.yaml", CallStep::kEdit, ""},
      {"MultiEdit", "/home/ml/trainer/data.py", CallStep::kEdit, ""},
      {"Bash", "sed -i 's/num_workers: 8/num_workers: 2/' configs/r12.yaml", CallStep::kEdit, ""},
      {"Bash", "kubectl -n web set env deploy/api POOL_SIZE=40", CallStep::kEdit, ""},
      // other
      {"Bash", "python train.py --config configs/r12.yaml", CallStep::kOther, ""},
      {"Bash", "pip install -r requirements.txt", CallStep::kOther, ""},
      {"WebSearch", "torch dataloader hang", CallStep::kOther, ""},
  };
  for (const Row& r : rows) {
    INFO(r.tool << ": " << r.command);
    const StepCall c = ClassifyCall(DefaultRules(), Call("t", r.tool, r.command));
    CHECK(CallStepName(c.step) == std::string(CallStepName(r.step)));
    CHECK(c.probe_kind == r.probe_kind);
    if (r.step != CallStep::kOther) CHECK(c.rule >= 0);
  }
}

TEST_CASE("A re-run of a failing command with one variable changed is a control") {
  evidence::Turn turn;
  turn.prompt = "why does training crash at step 1?";
  turn.tool_calls = {
      Call("a", "Bash", "python train.py --max-steps 1 --bs 1", "RuntimeError: CUDA error: an illegal memory access",
           /*is_error=*/true),
      Call("b", "Bash", "python train.py --max-steps 1 --bs 1 --precision 32", "step 1 loss 2.31"),
      Call("c", "Bash", "tail -n 50 train.log", "Traceback (most recent call last):"),
      Call("d", "Bash", "tail -n 80 train.log", "Traceback (most recent call last):"),
  };
  const ProtocolSteps s = TrackSteps(DefaultRules(), turn, {});
  REQUIRE(s.calls.size() == 4);
  CHECK(s.calls[0].step == CallStep::kSmoke);
  CHECK(s.calls[0].failed);
  CHECK(s.calls[1].step == CallStep::kControl);
  CHECK(s.calls[1].baseline == 0);
  CHECK(s.calls[1].changed == "+ --precision 32");
  // Tailing more of the same log is a probe, never a control.
  CHECK(s.calls[3].step == CallStep::kProbe);
  CHECK(s.step(ProtocolStep::kControl).tool_calls == std::vector<std::string>{"b"});
  CHECK(s.step(ProtocolStep::kSmoke).tool_calls == std::vector<std::string>{"a"});
  CHECK(s.next() == NextStep::kCite);
}

TEST_CASE("A smoke test against a plain failing run stays a smoke test; a passing baseline makes no control") {
  evidence::Turn turn;
  turn.prompt = "training dies with CUDA out of memory";
  turn.tool_calls = {
      Call("a", "Bash", "python train.py --bs 64", "torch.OutOfMemoryError: CUDA out of memory.", true),
      Call("b", "Bash", "python train.py --bs 1", "step 1 ok"),
      Call("c", "Bash", "python eval.py --split val", "accuracy 0.91"),
      Call("d", "Bash", "python eval.py --split test", "accuracy 0.90"),
  };
  const ProtocolSteps s = TrackSteps(DefaultRules(), turn, {});
  CHECK(s.calls[1].step == CallStep::kSmoke);
  CHECK(s.calls[1].baseline == -1);
  CHECK(s.calls[3].step == CallStep::kOther);  // the baseline did not fail
  CHECK(s.next() == NextStep::kControl);
}

TEST_CASE("Calls without ids get positional ids") {
  evidence::Turn turn;
  turn.tool_calls = {Call("", "Bash", "dmesg | tail"), Call("", "Bash", "nvidia-smi")};
  const ProtocolSteps s = TrackSteps(DefaultRules(), turn, {});
  CHECK(s.step(ProtocolStep::kProbe).tool_calls == std::vector<std::string>{"#0", "#1"});
  CHECK(s.ProbeKinds() == std::vector<std::string>{"system-log", "gpu"});
}

TEST_CASE("A hypothesis stated in the narration, in English and Chinese") {
  struct Row {
    const char* narration;
    bool hypothesis;
  };
  const Row rows[] = {
      {"Hypothesis: the loader runs out of shared memory. Not yet ruled out: a slow NFS mount.", true},
      {"The job probably died because the node ran out of memory.", true},  // hedged causal sentence
      {"假设：加载数据时共享内存不够。", true},
      {"训练可能是因为显存不足才挂的。", true},
      {"Let me check the kernel log first.", false},
      {"先看一下内核日志。", false},
  };
  for (const Row& r : rows) {
    INFO(r.narration);
    evidence::Turn turn;
    turn.narration = {r.narration};
    turn.tool_calls = {Call("a", "Bash", "dmesg | tail")};
    const ProtocolSteps s = TrackSteps(DefaultRules(), turn, {});
    CHECK(s.step(ProtocolStep::kHypothesis).seen == r.hypothesis);
  }
}

TEST_CASE("Next step follows the protocol's order and the symptom's key probes") {
  auto next = [](const std::string& prompt, std::vector<evidence::ToolCall> calls) {
    evidence::Turn turn;
    turn.prompt = prompt;
    turn.tool_calls = std::move(calls);
    return TrackSteps(DefaultRules(), turn, {}).next();
  };
  CHECK(next("why did it OOM?", {}) == NextStep::kProbe);
  // Read only the code and config: the failure itself is not probed yet.
  CHECK(next("why did it OOM?", {Call("a", "Read", "/r/train.py"), Call("b", "Bash", "cat c.yaml")}) == NextStep::kProbe);
  CHECK(next("why did it OOM?", {Call("a", "Bash", "df -h /data")}) == NextStep::kHypothesisSmoke);
  CHECK(next("why did it OOM?", {Call("a", "Bash", "dmesg -T | tail")}) == NextStep::kHypothesisSmoke);
  CHECK(next("why did it OOM?", {Call("a", "Bash", "dmesg -T | tail"), Call("b", "Bash", "python t.py --bs 1")}) ==
        NextStep::kControl);
  CHECK(std::string(NextStepName(NextStep::kHypothesisSmoke)) == "hypothesis+smoke");

  evidence::Turn turn;
  turn.prompt = "why did it OOM?";
  turn.tool_calls = {Call("a", "Bash", "df -h /data")};
  CHECK(TrackSteps(DefaultRules(), turn, {}).UnprobedKeyKinds() ==
        std::vector<std::string_view>{"system-log", "gpu", "process"});
  turn.tool_calls.push_back(Call("b", "Bash", "nvidia-smi"));
  CHECK(TrackSteps(DefaultRules(), turn, {}).UnprobedKeyKinds().empty());
}

// A history over turns in memory, newest first, counting reads.
class FakeHistory final : public evidence::History {
 public:
  explicit FakeHistory(std::vector<evidence::PastTurn> turns) : turns_(std::move(turns)) {}
  bool LoadOlder(evidence::PastTurn* out) override {
    if (next_ >= turns_.size()) return false;
    *out = turns_[next_++];
    return true;
  }
  std::size_t reads() const { return next_; }

 private:
  std::vector<evidence::PastTurn> turns_;
  std::size_t next_ = 0;
};

evidence::PastTurn Past(const std::string& prompt, int back, std::vector<evidence::ToolCall> calls) {
  evidence::PastTurn p;
  p.prompt = prompt;
  p.turns_back = back;
  for (evidence::ToolCall& c : calls) c.turns_back = back;
  p.tool_calls = std::move(calls);
  return p;
}

TEST_CASE("A follow-up prompt brings in the calls of the diagnosis it continues, en and zh") {
  struct Row {
    const char* prompt;
    bool follow_up;
  };
  const Row rows[] = {
      {"so why did it die?", true},
      {"ok, what killed it then?", true},
      {"那它为什么挂了？", true},
      {"为什么变慢了？", true},
      {"It runs ~70 min. so is that it?", true},
      {"is that it for the migration list?", false},
      {"Why does the nightly export fail on Mondays?", false},
      {"帮我看看 gpu-node-2 上的训练为什么每周一都失败，日志在 /data/logs 下面", false},
  };
  for (const Row& r : rows) {
    INFO(r.prompt);
    CHECK((FollowUpRule(DefaultRules(), r.prompt) >= 0) == r.follow_up);
  }

  FakeHistory history({Past("and then?", 1, {Call("p1", "Bash", "nvidia-smi")}),
                       Past("the run on node 3 crashed, check the kernel log", 2, {Call("p2", "Bash", "dmesg | tail")}),
                       Past("unrelated older work", 3, {Call("p3", "Bash", "ls")})});
  std::vector<evidence::PastTurn> earlier = LoadDiagnosisTurns(DefaultRules(), "so why did it die?", &history);
  CHECK(earlier.size() == 2);  // stops at the turn that started the diagnosis
  CHECK(history.reads() == 2);
  evidence::Turn turn;
  turn.prompt = "so why did it die?";
  turn.tool_calls = {Call("t1", "Bash", "free -g")};
  const ProtocolSteps s = TrackSteps(DefaultRules(), turn, earlier);
  CHECK(s.earlier_turns == 2);
  REQUIRE(s.calls.size() == 3);
  CHECK(s.calls[0].id == "p2");  // oldest first
  CHECK(s.calls[0].turns_back == 2);
  CHECK(s.calls[2].id == "t1");
  // The earlier prompt's symptom counts.
  REQUIRE_FALSE(s.symptoms.empty());
  CHECK(s.symptoms.front().name == "crash");

  // The turns read for tracking go on to the citation look-up, read once.
  PrefetchedHistory replay(std::move(earlier), &history);
  evidence::PastTurn out;
  REQUIRE(replay.LoadOlder(&out));
  CHECK(out.prompt == "and then?");
  REQUIRE(replay.LoadOlder(&out));
  REQUIRE(replay.LoadOlder(&out));
  CHECK(out.prompt == "unrelated older work");
  CHECK_FALSE(replay.LoadOlder(&out));

  // Not a follow-up: nothing is read.
  FakeHistory untouched({Past("x", 1, {})});
  CHECK(LoadDiagnosisTurns(DefaultRules(), "Why does the export fail?", &untouched).empty());
  CHECK(untouched.reads() == 0);
}

TEST_CASE("Follow-up chains stop at limits::kMaxStepTurnsBack") {
  std::vector<evidence::PastTurn> turns;
  for (int i = 1; i <= limits::kMaxStepTurnsBack + 2; ++i) turns.push_back(Past("so why?", i, {}));
  FakeHistory history(turns);
  CHECK(LoadDiagnosisTurns(DefaultRules(), "so why did it die?", &history).size() ==
        static_cast<std::size_t>(limits::kMaxStepTurnsBack));
}

TEST_CASE("The verdict tracks the protocol: follow-up calls cite, the assert step names the cited call") {
  FakeHistory history({Past("the run crashed last night. check the kernel log", 1,
                            {Call("k1", "Bash", "dmesg -T | tail -5",
                                  "[Mon 02:11] Out of memory: Killed process 4411 (python)")})});
  evidence::Turn turn;
  turn.prompt = "so why did it die?";
  turn.final_message = "It died because the kernel OOM-killed it: `Out of memory: Killed process 4411 (python)`.";
  const Verdict v = JudgeTurn(turn, &history, DefaultRules());
  REQUIRE(v.claims.size() == 1);
  CHECK(v.claims[0].finding == Finding::kSupported);
  CHECK(v.protocol.earlier_turns == 1);
  CHECK(v.protocol.step(ProtocolStep::kAssert).tool_calls == std::vector<std::string>{"k1"});
  CHECK(v.turns_read_back == 1);
}

TEST_CASE("The summary line names each step") {
  evidence::Turn turn;
  turn.prompt = "why did the trainer die?";
  turn.tool_calls = {Call("a", "Bash", "dmesg -T | tail", "Out of memory: Killed process 9 (python)"),
                     Call("b", "Bash", "nvidia-smi")};
  const std::string line = StepSummaryLine(TrackSteps(DefaultRules(), turn, {}));
  CHECK_THAT(line, Catch::StartsWith("probe: dmesg(system-log), nvidia-smi(gpu) | hypothesis: - | smoke: -"));
  CHECK_THAT(line, Catch::Contains("symptoms: oom(tool_output dmesg), crash(prompt)"));
  CHECK_THAT(line, Catch::EndsWith("next: hypothesis+smoke"));
}

}  // namespace
}  // namespace causegate::rules
