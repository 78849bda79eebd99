#include "rules/command_words.h"

#include <catch2/catch.hpp>

namespace causegate::rules {
namespace {

TEST_CASE("SplitCommand keeps quoted words whole and cuts at pipes and lists") {
  const CommandWords w = SplitCommand("cd /run && python train.py --name 'a b' 2>&1 | tail -20; echo \"x|y\"");
  REQUIRE(w.size() == 4);
  CHECK(w[0] == std::vector<std::string>{"cd", "/run"});
  CHECK(w[1] == std::vector<std::string>{"python", "train.py", "--name", "a b", "2>&1"});
  CHECK(w[2] == std::vector<std::string>{"tail", "-20"});
  CHECK(w[3] == std::vector<std::string>{"echo", "x|y"});
  CHECK(SplitCommand("").size() == 1);
  CHECK(SplitCommand("a \\\n b").front() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("MaskQuotedOperators hides the operators the shell does not see") {
  CHECK(MaskQuotedOperators("grep -E 'a|b;c' x.log | tail") == "grep -E 'a b c' x.log | tail");
  CHECK(MaskQuotedOperators("echo \"m.eval() > y\" > z.py") == "echo \"m.eval()   y\" > z.py");
  CHECK(MaskQuotedOperators("a \\| b") == "a \\| b");
}

TEST_CASE("CallLabel names the program that does the work") {
  struct Row {
    const char* tool;
    const char* command;
    const char* label;
  };
  const Row rows[] = {
      {"Bash", "dmesg -T | tail -100", "dmesg"},
      {"Bash", "sudo -u ml tail -n 5 /var/log/app.log", "tail"},
      {"Bash", "cd /srv && CUDA_VISIBLE_DEVICES=0 python train.py --bs 1", "python train.py"},
      {"Bash", "python -m pytest tests/test_io.py -x", "pytest"},
      {"Bash", "kubectl -n prod describe pod web-0", "kubectl describe"},
      {"Bash", "git -C repo log --oneline", "git log"},
      {"Bash", "ssh -p 2222 node7 'nvidia-smi --query-gpu=memory.used --format=csv'", "nvidia-smi"},
      {"Bash", "timeout 30 py-spy dump --pid 4242", "py-spy"},
      {"Bash", "for i in 1 2 3; do python -m pytest t.py -q; done", "pytest"},
      {"Read", "/home/ml/runs/exp/train.log", "Read train.log"},
      {"Grep", "def load_checkpoint", "Grep def load_checkpoint"},
      {"Edit", "/repo/src/io.cc", "Edit io.cc"},
      {"WebSearch", "", "WebSearch"},
  };
  for (const Row& r : rows) {
    INFO(r.command);
    CHECK(CallLabel(r.tool, r.command) == r.label);
  }
}

TEST_CASE("OneVariableChange: the same run with exactly one flag or value changed") {
  struct Row {
    const char* before;
    const char* after;
    bool control;
    const char* changed;
  };
  const Row rows[] = {
      {"python train.py --bs 8", "python train.py --bs 4", true, "--bs 8 -> 4"},
      {"python train.py --amp=true 2>&1 | tail -5", "python train.py --amp=false 2>&1 | tail -5", true,
       "--amp=true -> --amp=false"},
      {"python train.py --max-steps 5", "python train.py --max-steps 5 --no-amp", true, "+ --no-amp"},
      {"python train.py --max-steps 5 --compile", "python train.py --max-steps 5", true, "- --compile"},
      {"python train.py", "python train.py --workers 0", true, "+ --workers 0"},
      {"torchrun train.py model.dtype=bf16", "torchrun train.py model.dtype=fp32", true,
       "model.dtype=bf16 -> model.dtype=fp32"},
      {"NCCL_P2P_DISABLE=0 torchrun train.py", "NCCL_P2P_DISABLE=1 torchrun train.py", true,
       "NCCL_P2P_DISABLE=0 -> NCCL_P2P_DISABLE=1"},
      {"torchrun train.py", "NCCL_DEBUG=INFO torchrun train.py", true, "+ NCCL_DEBUG=INFO"},
      // Not controls.
      {"python train.py --bs 8", "python train.py --bs 8", false, ""},               // the same again
      {"python train.py --bs 8", "python train.py --bs 4 --no-amp", false, ""},      // two changes
      {"python train.py --bs 8", "python3 train.py --bs 8", false, ""},              // another program
      {"python train.py | tail -20", "python train.py | tail -50", false, ""},       // only the filter
      {"python a.py && python b.py", "python a.py --x && python b.py --y", false, ""},  // two segments
      {"python train.py", "python train.py extra", false, ""},                       // a bare word added
      {"make", "make test build", false, ""},
  };
  for (const Row& r : rows) {
    INFO(r.before << "  vs  " << r.after);
    std::string changed;
    CHECK(OneVariableChange(r.before, r.after, &changed) == r.control);
    if (r.control) CHECK(changed == r.changed);
  }
  CHECK(OneVariableChange("a --x 1", "a --x 2", nullptr));
  const std::string huge = "python train.py --note " + std::string(9000, 'x');
  CHECK_FALSE(OneVariableChange(huge, huge + " --no-amp", nullptr));
}

}  // namespace
}  // namespace causegate::rules
