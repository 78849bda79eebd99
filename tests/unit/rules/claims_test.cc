#include "rules/claims.h"

#include <catch2/catch.hpp>

#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

enum class Expect { kAssertive, kHedged, kExempt, kNotCausal };

TEST_CASE("Sentences: assertive, hedged, exempt, not causal (en and zh)") {
  struct Case {
    const char* text;
    Expect expect;
  };
  const std::vector<Case> cases = {
      {"The root cause is a full disk on the build host.", Expect::kAssertive},
      {"The upload timed out because the proxy buffers the whole body.", Expect::kAssertive},
      {"This is caused by a stale lock file.", Expect::kAssertive},
      {"The culprit is the nightly cleanup job.", Expect::kAssertive},
      {"Hypothesis: the stall is caused by the cleanup job deleting the lock.", Expect::kHedged},
      {"It might be caused by the cleanup job.", Expect::kHedged},
      {"The stall is probably caused by the cleanup job.", Expect::kHedged},
      {"Is the stall caused by the cleanup job?", Expect::kExempt},
      {"If the cause is the cleanup job, moving it will help.", Expect::kExempt},
      {"The stall is not caused by the network.", Expect::kExempt},
      {"I don't know yet what caused the stall.", Expect::kExempt},
      {"The service restarted twice overnight.", Expect::kNotCausal},
      {"根因是构建机的磁盘满了。", Expect::kAssertive},
      {"上传超时是因为代理缓存了整个请求体。", Expect::kAssertive},
      {"这是由过期的锁文件导致的。", Expect::kAssertive},
      {"假设：卡住是清理任务删掉锁导致的。", Expect::kHedged},
      {"可能是清理任务引起的。", Expect::kHedged},
      {"是清理任务导致的吗？", Expect::kExempt},
      {"如果是清理任务导致的，挪开它就好了。", Expect::kExempt},
      {"不是网络问题导致的。", Expect::kExempt},
      {"我目前还不知道是什么导致的。", Expect::kExempt},
      {"服务昨晚重启了两次。", Expect::kNotCausal},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const SentenceClass sc = ClassifySentence(DefaultRules(), c.text);
    switch (c.expect) {
      case Expect::kAssertive: CHECK(sc.assertive()); break;
      case Expect::kHedged: CHECK((sc.causal() && sc.hedged() && !sc.assertive())); break;
      case Expect::kExempt: CHECK((sc.causal() && sc.exemption_rule >= 0 && !sc.assertive())); break;
      case Expect::kNotCausal: CHECK_FALSE(sc.causal()); break;
    }
  }
}

TEST_CASE("After a lead-in's colon, the forms read at a sentence's start hold, and so does the lead-in's hedge") {
  const RuleSet& rules = DefaultRules();
  auto has = [&](std::string_view sentence, std::string_view id) {
    for (const int r : ClassifySentence(rules, sentence).hits.rules) {
      if (rules.rule(r).id == id) return true;
    }
    return false;
  };
  CHECK(has("Checked the logs: the crash loop is the kernel remounting the disk.", "en.feature.copula-cause"));
  CHECK(has("Update: it's not the network.", "en.negation.not-cause"));
  CHECK_FALSE(has("Checked the logs, and the disk is fine.", "en.feature.copula-cause"));
  const SentenceClass hedged = ClassifySentence(rules, "Hypothesis: the crash loop is the kernel remounting the disk.");
  CHECK(hedged.hedged());
  CHECK(has("Hypothesis: the crash loop is the kernel remounting the disk.", "en.feature.copula-cause"));
}

TEST_CASE("Rationale exempts only sentences that name no failure") {
  const SentenceClass own = ClassifySentence(DefaultRules(), "I put the parser in its own module because two commands share it.");
  CHECK(own.causal());
  CHECK_FALSE(own.assertive());
  const SentenceClass failed =
      ClassifySentence(DefaultRules(), "The build failed because I put the parser in the wrong module.");
  CHECK(failed.assertive());
  CHECK(failed.names_failure());
}

TEST_CASE("Diagnostic prompts") {
  const std::vector<std::pair<const char*, bool>> cases = {
      {"why did the nightly export fail?", true},
      {"the API returns 502 under load, can you investigate?", true},
      {"训练卡住了，帮我排查一下", true},
      {"为什么接口变慢了？", true},
      {"add a --verbose flag to the exporter", false},
      {"给导出工具加一个参数", false},
      // Short real prompts that report a symptom without a failure word.
      {"memory keeps growing in the gateway", true},
      {"users can't log in since this morning", true},
      {"CI 又红了", true},
      {"SSO 用户登录不了", true},
      // A malfunction told as a state, a loss or a change.
      {"the nightly export is empty again", true},
      {"the numbers in the report don't add up", true},
      {"this used to work yesterday", true},
      {"the webhook never fires for refunds", true},
      {"定时任务昨晚没跑", true},
      {"导出的文件是空的", true},
      {"add a placeholder for when the list is empty", false},
      {"don't use tabs in the YAML files", false},
      // A "why" about how the code is built asks for no diagnosis, unless a
      // symptom comes with it.
      {"why is the cache keyed on the user id?", false},
      {"why do we use a mutex here instead of an atomic?", false},
      {"为什么缓存按用户 id 分？", false},
      {"why is the cache keyed on the user id? the admin page returns 500", true},
      {"why is the cache empty after a restart?", true},
      // "instead of" after "why do we" asks about a choice; a failure word
      // beside it still makes a diagnosis.
      {"why do we route every string through t() instead of template literals?", false},
      {"why do we get a 502 instead of the page?", true},
      // A bug report pasted in: what the system fails to do.
      {"Consider the following PR description: Header.fromstring does not accept Python 3 bytes", true},
      {"makemigrations produces incorrect path for inner classes", true},
      {"Add --skip-checks option to the runserver command.", false},
      // A request to build something names a failure without asking for a
      // diagnosis; a why, a fix or a debugging request still makes one.
      {"add a per-query timeout to the reporting endpoints, 10s is fine", false},
      {"implement retries for the flaky upload", false},
      {"给报表接口加一个查询超时", false},
      {"add retries, but first: why does the upload fail?", true},
      {"the upload times out after adding the proxy", true},
      {"上传超时了，修一下", true},
      // A question that names a suspect asks for a cause; a figure then and
      // a worse one now is a regression; a retry backoff is a feature.
      {"对，就是那个归档脚本的问题吧？怎么解决", true},
      {"so is it the archive script's fault?", true},
      {"这条 SQL 昨天还 200ms，今天要 20s，帮我看下", true},
      {"loss 一直降不下去，训练了两天了", true},
      {"explain how the retry backoff in internal/queue/retry.go works", false},
      // Work done twice is a symptom; doing it twice on purpose is not.
      {"some celery tasks run twice, can you look at the config", true},
      {"run the migration twice to check it is idempotent", false},
      {"the report total is 3% higher than the orders page. debug please", true},
  };
  // The hook's staged search (rules/rule_set.h, staged_first_match) must
  // name the same rule as the whole match does.
  CompileOptions staged_options;
  staged_options.lazy = true;
  staged_options.staged_first_match = true;
  std::shared_ptr<const RuleSet> staged;
  REQUIRE(LoadRuleSet("", staged_options, &staged).ok());
  for (const auto& [prompt, diagnostic] : cases) {
    INFO(prompt);
    const int rule = DiagnosticRule(DefaultRules(), prompt);
    CHECK((rule >= 0) == diagnostic);
    CHECK(DiagnosticRule(*staged, prompt) == rule);
  }
  // And on every prompt example of the packs.
  for (const Rule& r : DefaultRules().rules()) {
    if (r.kind != RuleKind::kDiagnosticPrompt) continue;
    for (const auto* examples : {&r.must_match, &r.must_not_match}) {
      for (const std::string& prompt : *examples) {
        INFO(r.id << ": " << prompt);
        CHECK(DiagnosticRule(*staged, prompt) == DiagnosticRule(DefaultRules(), prompt));
      }
    }
  }
}

}  // namespace
}  // namespace causegate::rules
