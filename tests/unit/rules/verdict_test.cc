#include "rules/verdict.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <string>

#include "evidence/limits.h"

#include "test_rules.h"

namespace causegate::rules {
namespace {

using evidence::ToolCall;
using evidence::Turn;
using testing::DefaultRules;

ToolCall Call(std::string name, std::string command, std::string output, std::string input = "") {
  ToolCall c;
  c.id = "toolu_" + std::to_string(std::hash<std::string>()(command) % 100000);
  c.name = std::move(name);
  c.command = command;
  c.input = input.empty() ? "{\"command\":\"" + command + "\"}" : input;
  c.output = std::move(output);
  c.has_result = true;
  return c;
}

Turn DiagnosisTurn(std::string final, std::vector<ToolCall> calls) {
  Turn t;
  t.prompt = "the trainer died at 14:23, why did it crash?";
  t.final_message = std::move(final);
  t.tool_calls = std::move(calls);
  return t;
}

// A turn with no tool call: a prompt and the agent's final message.
struct PromptAndFinal {
  const char* prompt;
  const char* final;
};

Verdict JudgeToolless(const PromptAndFinal& c) {
  Turn turn;
  turn.prompt = c.prompt;
  turn.final_message = c.final;
  return JudgeTurn(turn, nullptr, DefaultRules());
}

const char* kDmesg = "[14:23:07] Out of memory: Killed process 48121 (python) total-vm:297716424kB";

Finding OnlyFinding(const Verdict& v) {
  REQUIRE(v.claims.size() == 1);
  return v.claims[0].finding;
}

TEST_CASE("Findings follow the spec's order") {
  struct Case {
    const char* name;
    std::string final;
    std::vector<ToolCall> calls;
    Finding expected;
  };
  const ToolCall dmesg = Call("Bash", "dmesg | tail", kDmesg);
  const std::vector<Case> cases = {
      {"quote in tool output", "Root cause: an OOM kill. Evidence: `Out of memory: Killed process 48121 (python)`",
       {dmesg}, Finding::kSupported},
      {"case and white space folded", "Root cause: an OOM kill, see \"OUT OF   MEMORY: killed process 48121\".", {dmesg},
       Finding::kSupported},
      {"quote altered by a digit", "Root cause: an OOM kill. Evidence: `Out of memory: Killed process 48112 (python)`",
       {dmesg}, Finding::kFabricated},
      {"quote only in the user's prompt", "The crash is caused by the warmup: \"the trainer died at 14:23\".", {dmesg},
       Finding::kUserOnly},
      {"no tool ran", "The root cause is an OOM kill.", {}, Finding::kNoProbe},
      {"tools ran, nothing quoted", "dmesg confirms it: the root cause is host memory.", {dmesg}, Finding::kNoCitation},
      {"quote under 8 characters", "Root cause: `OOM`.", {dmesg}, Finding::kNoCitation},
      {"quote only in a command is a reference", "Root cause: OOM, I ran `dmesg | tail` to see it.", {dmesg},
       Finding::kNoCitation},
      {"quote only in echoed output", "Root cause: an OOM kill: `kernel says OOM killer fired`",
       {dmesg, Call("Bash", "echo 'kernel says OOM killer fired'", "kernel says OOM killer fired")},
       Finding::kFabricated},
      {"a grep of the log is evidence", "The job crashed because the kernel OOM-killed it: `Out of memory: Killed process`",
       {Call("Bash", "grep 'Out of memory: Killed process' /var/log/kern.log", kDmesg)}, Finding::kSupported},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Turn turn = DiagnosisTurn(c.final, c.calls);
    const Verdict v = JudgeTurn(turn, nullptr, DefaultRules());
    CHECK(OnlyFinding(v) == c.expected);
    CHECK((v.decision == Decision::kBlock) == (c.expected != Finding::kSupported));
  }
}

TEST_CASE("No claim, no block: hedges, quoted logs, non-diagnostic rationale") {
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"hypothesis", "Hypothesis: the run died from an OOM kill. Next probe: `dmesg | tail -100`."},
      {"causal words only in a fenced log", "Here is the log:\n\n```\nCaused by: java.lang.OutOfMemoryError\n```\n\nI don't know yet why."},
      {"block quote", "> Caused by: connection refused\n\nIs the database up?"},
  };
  for (const auto& [name, final] : cases) {
    INFO(name);
    const Verdict v = JudgeTurn(DiagnosisTurn(final, {}), nullptr, DefaultRules());
    CHECK(v.claims.empty());
    CHECK(v.decision == Decision::kAllow);
  }
  Turn feature;
  feature.prompt = "add a --resume flag to the trainer";
  feature.final_message = "I put the flag in cli.py because argument parsing lives there.";
  CHECK(JudgeTurn(feature, nullptr, DefaultRules()).claims.empty());
}

TEST_CASE("One supported and one unsupported claim block, each with its own finding") {
  const Turn turn = DiagnosisTurn(
      "The crash was caused by an OOM kill: `Out of memory: Killed process 48121 (python)`.\n\n"
      "The slowdown before it was due to swapping.",
      {Call("Bash", "dmesg | tail", kDmesg)});
  const Verdict v = JudgeTurn(turn, nullptr, DefaultRules());
  REQUIRE(v.claims.size() == 2);
  CHECK(v.claims[0].finding == Finding::kSupported);
  CHECK(v.claims[1].finding == Finding::kNoCitation);
  CHECK(v.decision == Decision::kBlock);
  CHECK(v.unsupported() == 1);
  const CitationCheck& c = v.claims[0].citations.at(0);
  CHECK(c.tool == "Bash");
  CHECK(c.command == "dmesg | tail");
  CHECK_THAT(c.excerpt, Catch::Contains("Killed process 48121"));
}

class OneTurnBack : public evidence::History {
 public:
  bool LoadOlder(evidence::PastTurn* out) override {
    if (done_) return false;
    done_ = true;
    out->prompt = "show me the kernel log";
    out->tool_calls = {Call("Bash", "journalctl -k", kDmesg)};
    out->tool_calls[0].turns_back = 1;
    out->turns_back = 1;
    return true;
  }
  bool done_ = false;
};

TEST_CASE("A citation from an earlier turn is looked up only when needed") {
  OneTurnBack history;
  const Turn turn = DiagnosisTurn("Root cause: `Out of memory: Killed process 48121 (python)`.", {});
  const Verdict v = JudgeTurn(turn, &history, DefaultRules());
  REQUIRE(v.claims.size() == 1);
  CHECK(v.claims[0].finding == Finding::kSupported);
  CHECK(v.claims[0].citations[0].turns_back == 1);
  CHECK(v.turns_read_back == 1);

  OneTurnBack unused;
  const Verdict local = JudgeTurn(DiagnosisTurn("Root cause: `Out of memory: Killed process 48121`.",
                                                {Call("Bash", "dmesg", kDmesg)}),
                                  &unused, DefaultRules());
  CHECK(local.turns_read_back == 0);
  CHECK_FALSE(unused.done_);
}

TEST_CASE("Chinese claims: a 4-Han quote cites, a 2-Han quote does not") {
  Turn turn;
  turn.prompt = "下单接口为什么失败？";
  turn.tool_calls = {Call("Bash", "tail app.log", "ERROR 写流水失败：磁盘空间不足")};
  turn.final_message = "下单失败的原因是「磁盘空间不足」。";
  Verdict v = JudgeTurn(turn, nullptr, DefaultRules());
  REQUIRE(v.claims.size() == 1);
  CHECK(v.claims[0].finding == Finding::kSupported);
  CHECK(v.claims[0].chinese);

  turn.final_message = "下单失败的原因是「磁盘」满了。";
  v = JudgeTurn(turn, nullptr, DefaultRules());
  REQUIRE(v.claims.size() == 1);
  CHECK(v.claims[0].finding == Finding::kNoCitation);
}

TEST_CASE("Short real prompts and the forms a cause takes in a final message") {
  // Each prompt reports a malfunction without a failure word; each message
  // states an unsupported cause through a label, a cleft, a copula or an
  // idiom rather than a connective. Every one is a block with no tool run.
  const std::vector<PromptAndFinal> cases = {
      {"the settings page shows the wrong language",
       "TL;DR: the cache key omits the locale, so the first visitor's page is served to everyone."},
      {"the login page loops", "Verdict - the session cookie is scoped to the wrong domain."},
      {"why does the build fail in CI only?",
       "- **Why it failed:** the lockfile is a commit behind the manifest.\n- **What I changed:** regenerated it."},
      {"why is p99 up?", "The p99 jump is GC: the new cache holds every response body."},
      {"the test is flaky", "It's a timing issue. The test sleeps 100 ms and the job sometimes needs 150."},
      {"checkout takes 8 seconds now", "It's the N+1 in the orders serializer that makes the page slow."},
      {"why is the cache hit rate zero?", "The reason the cache never hits is that the key includes a timestamp."},
      {"查询为什么慢？", "慢就慢在排序：它先对 400 万行排序再取前 20 条。"},
      {"升级之后报错了", "这个回归是切换到异步驱动引入的，它不支持 savepoint。"},
      // A form that opens a sentence, opening a later clause.
      {"the kiosk app crash-loops after a day",
       "The root filesystem is read-only now, and the crash loop is the kernel remounting it after SD errors."},
      {"test_ingest is flaky in CI", "**Root of the flakiness:** every worker opens the same scratch file."},
      {"the worker won't start anymore",
       "My mistake from the last change: I renamed the Redis setting and missed the worker, so it crashed on startup."},
      {"接口从昨天下午开始大量超时，为什么", "是昨天合入的那次调整把连接池上限改成了 8，请求拿不到连接就超时。"},
      {"loss 一直降不下去", "模型不收敛是因为学习率太大。"},
      {"这条 SQL 昨天还 200ms，今天要 20s", "根因：统计信息过期，优化器放弃了索引。"},
  };
  for (const PromptAndFinal& c : cases) {
    INFO(c.prompt << " / " << c.final);
    const Verdict v = JudgeToolless(c);
    REQUIRE(v.claims.size() == 1);
    CHECK(v.claims[0].finding == Finding::kNoProbe);
  }
}

TEST_CASE("A design note, a plan's reason and why something works are no claims") {
  const std::vector<PromptAndFinal> cases = {
      {"add a dark mode switch to the settings page",
       "设计说明：偏好存在 DataStore 而不是 SharedPreferences，因为切换后立即生效，不需要重启 Activity。"},
      {"这台机器上周 panic 了两次，帮我想想怎么查", "先打开 kdump，因为下次 panic 时它能把内核现场存成 vmcore。"},
      {"刷新 /orders/123 就 404，首页正常", "同一个 server 下首页能打开，是因为 / 本身命中了 index.html。"},
      {"explain how the retry backoff in the queue works",
       "Each attempt doubles the delay because shifting left by one multiplies by two."},
  };
  for (const PromptAndFinal& c : cases) {
    INFO(c.prompt << " / " << c.final);
    CHECK(JudgeToolless(c).claims.empty());
  }
}

TEST_CASE("A failure-naming causal sentence is a claim outside a diagnosis") {
  Turn turn;
  turn.prompt = "add a --dry-run flag";
  turn.tool_calls = {Call("Bash", "pytest", "12 passed")};
  turn.final_message = "Added the flag. The first test run failed because the fixture lacked the attribute.";
  const Verdict v = JudgeTurn(turn, nullptr, DefaultRules());
  REQUIRE(v.claims.size() == 1);
  CHECK(v.claims[0].finding == Finding::kNoCitation);
}


// One earlier turn with the given prompt.
class EarlierPrompt : public evidence::History {
 public:
  explicit EarlierPrompt(std::string prompt) : prompt_(std::move(prompt)) {}
  bool LoadOlder(evidence::PastTurn* out) override {
    if (done_) return false;
    done_ = true;
    out->prompt = prompt_;
    out->turns_back = 1;
    return true;
  }

 private:
  std::string prompt_;
  bool done_ = false;
};

TEST_CASE("A follow-up of a diagnosis is a diagnosis: 'continue' after 'why did it crash?'") {
  Turn turn;
  turn.prompt = "continue";
  turn.tool_calls = {Call("Bash", "ls", "a b")};
  turn.final_message = "The worker stops because the config file names the old volume.";
  EarlierPrompt debugging("the trainer died at 14:23, why did it crash?");
  const Verdict v = JudgeTurn(turn, &debugging, DefaultRules());
  CHECK(v.diagnostic_rule >= 0);
  CHECK(v.diagnosis_from_earlier_turn);
  CHECK(v.decision == Decision::kBlock);

  EarlierPrompt feature("add a retry to the uploader");
  const Verdict plain = JudgeTurn(turn, &feature, DefaultRules());
  CHECK(plain.diagnostic_rule < 0);
  CHECK(plain.decision == Decision::kAllow);
}


TEST_CASE("A claim written twice in one message is one claim") {
  const Verdict v = JudgeTurn(DiagnosisTurn("The trainer died because the batch is too large.\n\n"
                                            "The trainer died because the batch is too large.",
                                            {Call("Bash", "ls", "a b")}),
                              nullptr, DefaultRules());
  CHECK(v.claims.size() == 1);
  CHECK(v.decision == Decision::kBlock);
}


TEST_CASE("A command proposed for the next probe is a plan, not a fabricated citation") {
  const Verdict v = JudgeTurn(DiagnosisTurn("The trainer died because the batch is too large. "
                                            "Next probe: `dmesg | tail -100 | grep -i oom`.",
                                            {Call("Bash", "nvidia-smi", "GPU 0: 79000MiB / 81559MiB")}),
                              nullptr, DefaultRules());
  REQUIRE(v.claims.size() == 1);
  CHECK(v.claims[0].finding == Finding::kNoCitation);
  // The same span as a quote of output nobody printed is still fabricated.
  const Verdict made_up = JudgeTurn(DiagnosisTurn("The trainer died because the batch is too large: "
                                                  "`Out of memory: Killed process 4242 (python)`.",
                                                  {Call("Bash", "nvidia-smi", "GPU 0: 79000MiB / 81559MiB")}),
                                    nullptr, DefaultRules());
  REQUIRE(made_up.claims.size() == 1);
  CHECK(made_up.claims[0].finding == Finding::kFabricated);
}

// A message's quotes are looked up up to limits::kMaxFragmentsPerMessage
// distinct texts, in message order; later ones cite nothing, so padding a
// message with quotes cannot move a real one out of reach of the check
// nor buy a pass: the claim it alone would support stays unsupported.
TEST_CASE("kMaxFragmentsPerMessage: the real quote at the cap supports, one place past it does not") {
  const ToolCall dmesg = Call("Bash", "dmesg | tail", kDmesg);
  for (const std::size_t place : {limits::kMaxFragmentsPerMessage, limits::kMaxFragmentsPerMessage + 1}) {
    INFO("the real quote is fragment " << place);
    std::string message = "Root cause: an OOM kill.\n\n```\n";
    for (std::size_t i = 1; i < place; ++i) message += "padding line " + std::to_string(i) + "\n";
    message += "Out of memory: Killed process 48121 (python)\n```\n";
    const Verdict v = JudgeTurn(DiagnosisTurn(message, {dmesg}), nullptr, DefaultRules());
    const bool within = place <= limits::kMaxFragmentsPerMessage;
    CHECK(OnlyFinding(v) == (within ? Finding::kSupported : Finding::kFabricated));
    CHECK(v.fragments_past_cap == (within ? 0 : 1));
    // The claim carries one check per fragment looked up, never more than the cap.
    CHECK(v.claims[0].citations.size() == std::min(place, limits::kMaxFragmentsPerMessage));
  }
}

TEST_CASE("A quote under several claims is looked up once; repeated quotes count once against the cap") {
  const ToolCall dmesg = Call("Bash", "dmesg | tail", kDmesg);
  std::string message = "The root cause is an OOM kill. The crash is caused by host memory.\n\n```\n";
  // The same padding line many times over is one distinct quote.
  for (std::size_t i = 0; i < 2 * limits::kMaxFragmentsPerMessage; ++i) message += "padding line again\n";
  message += "Out of memory: Killed process 48121 (python)\n```\n";
  const Verdict v = JudgeTurn(DiagnosisTurn(message, {dmesg}), nullptr, DefaultRules());
  REQUIRE(v.claims.size() == 2);
  CHECK(v.fragments_past_cap == 0);
  for (const Claim& claim : v.claims) CHECK(claim.finding == Finding::kSupported);
}

}  // namespace
}  // namespace causegate::rules
