#include "rules/claim_scorer.h"

#include <string>

#include <catch2/catch.hpp>

#include "evidence/text_fold.h"
#include "rules/message.h"
#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

// Scores the one sentence of text as a paragraph of a diagnosis turn.
ClaimScore Score(std::string_view text, bool diagnosis = true, const ClaimScorer& scorer = ClaimScorer::Default()) {
  const RuleSet& rules = DefaultRules();
  const Message m = ParseMessage(text);
  REQUIRE(!m.sentences.empty());
  const Sentence& s = m.sentences.front();
  return ScoreSentence(rules, scorer, s.masked, ClassifySentence(rules, s.masked), MessagePlaces(rules, m).Of(s), diagnosis);
}

bool HasFeature(const ClaimScore& s, std::string_view name) {
  for (const FeatureWeight& f : s.features) {
    if (f.feature == name) return true;
  }
  return false;
}

TEST_CASE("Scorer: the embedded weights parse, and the spec's plain claims are claims") {
  const ClaimScorer& scorer = ClaimScorer::Default();
  CHECK(scorer.threshold() < 1e100);  // a parse failure would switch every claim off
  for (const char* text : {"The root cause is a full disk on the build host.",
                           "The upload timed out because the proxy buffers the whole body.",
                           "根因是构建机的磁盘满了。", "上传超时是因为代理缓存了整个请求体。"}) {
    INFO(text);
    const ClaimScore s = Score(text);
    CHECK(s.scored);
    CHECK(s.claim);
    CHECK(s.rule >= 0);
  }
}

TEST_CASE("Scorer: a hedge counts in the claim's clause, not in a neighbouring one") {
  CHECK_FALSE(Score("The cause may be the stale cache, so I raised the TTL.").claim);
  const ClaimScore two = Score("The root cause is the stale cache key, but it may also be the TTL.");
  CHECK_FALSE(HasFeature(two, "hedge"));
  CHECK(HasFeature(two, "hedge@sentence"));
  // An offer after the claim keeps its hedge to itself (section 2's own
  // example): nothing of it weighs against the finding.
  for (const char* offer : {"The root cause is the stale cache key, and I suggest raising the TTL.",
                            "The backup hangs because the reindex holds the lock, and maybe we could move it to 04:00.",
                            "The deploy failed because the migration locked the table, if you want I can add a timeout.",
                            "导出失败是因为磁盘满了，或许也可以加个告警。"}) {
    INFO(offer);
    const ClaimScore s = Score(offer);
    CHECK(s.claim);
    CHECK_FALSE(HasFeature(s, "hedge"));
    CHECK_FALSE(HasFeature(s, "hedge@sentence"));
  }
  CHECK_FALSE(Score("Hypothesis: the stall is caused by the cleanup job deleting the lock.").claim);
}

TEST_CASE("Scorer: several claim forms in one clause weigh as one, so they cannot outweigh its hedge") {
  // "the issue is in X" is identification and copula-cause at once: one
  // assertion, one form's weight, and "forms:2+" says more matched.
  const ClaimScore hedged = Score("This suggests the issue is in the query planner, likely in the join code.");
  CHECK(HasFeature(hedged, "hedge"));
  CHECK(HasFeature(hedged, "forms:2+"));
  int forms = 0;
  for (const FeatureWeight& f : hedged.features) forms += f.feature.rfind("feature:form.", 0) == 0;
  CHECK(forms == 1);
  CHECK_FALSE(hedged.claim);
  // The same identification asserted is a claim.
  CHECK(Score("The issue is in the query planner: the join code drops the index hint.").claim);
  // One form matched by two packs' rules (en and zh both tag an arrow
  // chain form.arrow-chain) is one form.
  const ClaimScore chain = Score("请求链路：网关 → 鉴权服务 → 订单服务，最后写入数据库。");
  CHECK(HasFeature(chain, "feature:form.arrow-chain"));
  CHECK_FALSE(HasFeature(chain, "forms:2+"));
  // The form that weighs is the strongest of those matched, not the first
  // the packs list: a discovery over the defect it found.
  const ClaimScore found = Score("问题定位到了：环境变量 DATABASE_URL 在生产环境没有配置。");
  CHECK(HasFeature(found, "feature:form.discovery"));
  CHECK_FALSE(HasFeature(found, "feature:form.defect"));
  CHECK(HasFeature(found, "forms:2+"));
  CHECK(found.claim);
}

TEST_CASE("Scorer: hard rules outside the weights") {
  // Outside a diagnosis, only a sentence that names a failure can be a claim.
  const ClaimScore plain = Score("The config is merged twice because the loader runs on import.", /*diagnosis=*/false);
  CHECK_FALSE(plain.claim);
  CHECK(plain.overruled == "no diagnosis and no failure named");
  CHECK(Score("The build failed because the lockfile is stale.", /*diagnosis=*/false).claim);
  // A heading is never a claim by itself.
  const ClaimScore heading = Score("## The root cause is the stale cache");
  CHECK_FALSE(heading.claim);
  CHECK(heading.overruled == "heading");
}

TEST_CASE("Scorer: a heading that names the cause marks the first unit of its section") {
  const RuleSet& rules = DefaultRules();
  const Message m = ParseMessage("## Why it broke\n\nThe nightly job rotates the log.\n\nMore text here.\n");
  REQUIRE(m.sentences.size() == 3);
  CHECK(MessagePlaces(rules, m).Of(m.sentences[1]).first_under_cause_heading);
  CHECK_FALSE(MessagePlaces(rules, m).Of(m.sentences[2]).first_under_cause_heading);
  CHECK(MessagePlaces(rules, m).Of(m.sentences[2]).under_cause_heading);
  const Message plain = ParseMessage("## Next steps\n\nThe nightly job rotates the log.\n");
  CHECK_FALSE(MessagePlaces(rules, plain).Of(plain.sentences[1]).under_cause_heading);
}

TEST_CASE("Scorer: weights file errors name the line") {
  ClaimScorer s;
  CHECK(ClaimScorer::Parse("bias\t0\nthreshold\t1\ncue:*\t2\n# note\nfeature:plan\t-1\n", "w.tsv", &s).ok());
  CHECK(s.Weight("cue:claim.because") == 2);  // an unknown family falls back to cue:*
  CHECK(s.Weight("feature:plan") == -1);
  CHECK(s.Weight("feature:unknown") == 0);
  const Status missing = ClaimScorer::Parse("bias\t0\n", "w.tsv", &s);
  CHECK_FALSE(missing.ok());
  CHECK(missing.message().find("threshold") != std::string::npos);
  const Status bad = ClaimScorer::Parse("bias\t0\nthreshold\t1\nplan -1\n", "w.tsv", &s);
  CHECK(bad.message().rfind("w.tsv:3:", 0) == 0);
  CHECK_FALSE(ClaimScorer::Parse("bias\t0\nthreshold\tnan\n", "w.tsv", &s).ok());
  CHECK_FALSE(ClaimScorer::Parse("bias\t0\nthreshold\t1\nx\t1\nx\t2\n", "w.tsv", &s).ok());
}

TEST_CASE("Scorer: a user pack forces a claim or an exemption") {
  Pack pack;
  REQUIRE(ParsePack(R"({"format": "causegate-pack/1", "pack": "mine", "version": "1", "lang": "en", "rules": [
      {"id": "mine.feature.force", "kind": "feature", "tag": "force-claim", "pattern": "\\bthe gremlin\\b",
       "match": ["it was the gremlin"], "no_match": ["it was the cache"]},
      {"id": "mine.feature.exempt", "kind": "feature", "tag": "force-exempt", "pattern": "\\bin theory\\b",
       "match": ["in theory it fails"], "no_match": ["it fails"]}]})",
                    "mine.json", &pack)
              .ok());
  std::vector<Pack> packs = DefaultPacks();
  packs.push_back(pack);
  std::shared_ptr<const RuleSet> rules;
  REQUIRE(RuleSet::Compile(std::move(packs), &rules).ok());
  auto score = [&](std::string_view text) {
    const Message m = ParseMessage(text);
    const Sentence& s = m.sentences.front();
    return ScoreSentence(*rules, ClaimScorer::Default(), s.masked, ClassifySentence(*rules, s.masked),
                         MessagePlaces(*rules, m).Of(s), true);
  };
  const ClaimScore forced = score("It was the gremlin in the rack.");
  CHECK(forced.claim);
  CHECK(rules->rule(forced.rule).id == "mine.feature.force");
  const ClaimScore exempt = score("In theory the root cause is the stale cache.");
  CHECK_FALSE(exempt.claim);
  CHECK(exempt.overruled.rfind("forced exempt", 0) == 0);
}

TEST_CASE("Scorer: a feature rule needs a tag") {
  Pack pack;
  const Status s = ParsePack(R"({"format": "causegate-pack/1", "pack": "p", "version": "1", "rules": [
      {"id": "p.feature.x", "kind": "feature", "pattern": "x", "match": ["x"], "no_match": ["y"]}]})",
                             "p.json", &pack);
  CHECK_FALSE(s.ok());
  CHECK(s.message().find("needs a tag") != std::string::npos);
}


TEST_CASE("Scorer: a lead-in that gives the cause, and a table row labelled Cause, introduce claims") {
  const RuleSet& rules = DefaultRules();
  const Message lead = ParseMessage("The deploy fails because:\n\n- the image tag is stale\n- the probe path moved\n");
  REQUIRE(lead.sentences.size() == 3);
  const SentencePlace item = MessagePlaces(rules, lead).Of(lead.sentences[1]);
  CHECK(item.after_cause_lead_in);
  CHECK(item.introduces_cause());
  CHECK(item.rule >= 0);
  CHECK(MessagePlaces(rules, lead).Of(lead.sentences[0]).leads_list);
  CHECK_FALSE(MessagePlaces(rules, lead).Of(lead.sentences[1]).leads_list);
  // A colon before a code block opens what shows the statement: no lead-in.
  const Message block = ParseMessage("The norm blew up after warmup:\n\n```\nstep 11237 | grad_norm inf\n```\n");
  CHECK_FALSE(MessagePlaces(rules, block).Of(block.sentences[0]).leads_list);
  // It weighs where no connective stands before it (a label over the
  // block); a claim that then shows its log lines is weighed as a claim.
  CHECK(HasFeature(Score("Error message when the tool is missing:"), "colon-before-block"));
  CHECK_FALSE(HasFeature(Score("The norm blew up after warmup because nothing clipped it:"), "colon-before-block"));
  const Message plain = ParseMessage("Changes in this pass:\n\n- the image tag is bumped\n");
  CHECK_FALSE(MessagePlaces(rules, plain).Of(plain.sentences[1]).after_cause_lead_in);
  // A hedged or questioning lead-in introduces hypotheses, not causes; a
  // negated one still asserts what follows.
  for (const char* hypotheses : {"The deploy could fail because of:\n\n- the image tag is stale\n",
                                 "## Possible causes of the crash\n\n- the image tag is stale\n",
                                 "Does the deploy fail because of one of these?\n\n- the image tag is stale\n"}) {
    INFO(hypotheses);
    const Message m = ParseMessage(hypotheses);
    const SentencePlace p = MessagePlaces(rules, m).Of(m.sentences.back());
    CHECK_FALSE(p.after_cause_lead_in);
    CHECK_FALSE(p.under_cause_heading);
  }
  const Message negated = ParseMessage("The deploy fails not because of the network but because:\n\n- the image tag is stale\n");
  CHECK(MessagePlaces(rules, negated).Of(negated.sentences.back()).after_cause_lead_in);

  const Message table = ParseMessage("| Field | Value |\n|---|---|\n| Cause | the nightly cron job |\n| Owner | ops |\n");
  bool found = false;
  for (const Sentence& s : table.sentences) {
    const SentencePlace p = MessagePlaces(rules, table).Of(s);
    if (s.text == "the nightly cron job") {
      found = true;
      CHECK(p.in_cause_row);
    }
    if (s.text == "ops") CHECK_FALSE(p.in_cause_row);
  }
  CHECK(found);

  // A column headed by a cause word labels every cell below it; the other
  // columns, and a table with a plain header, label none.
  const Message columns = ParseMessage(
      "| Symptom | Root cause | Fix |\n|---|---|---|\n| 502s | the upstream pool is exhausted | raise it |\n");
  int in_cause_column = 0;
  for (const Sentence& s : columns.sentences) {
    const SentencePlace p = MessagePlaces(rules, columns).Of(s);
    if (s.text == "the upstream pool is exhausted") CHECK(p.in_cause_row);
    if (s.text == "502s" || s.text == "raise it") CHECK_FALSE(p.in_cause_row);
    in_cause_column += p.in_cause_row && s.text == "the upstream pool is exhausted";
  }
  CHECK(in_cause_column == 1);
  const Message plain_table = ParseMessage("| Step | Result |\n|---|---|\n| build | the image is pushed |\n");
  for (const Sentence& s : plain_table.sentences) CHECK_FALSE(MessagePlaces(rules, plain_table).Of(s).in_cause_row);
}

// Scores the table cell whose text is cell, in message.
ClaimScore ScoreCell(std::string_view message, std::string_view cell) {
  const RuleSet& rules = DefaultRules();
  const Message m = ParseMessage(message);
  const MessagePlaces places(rules, m);
  for (const Sentence& s : m.sentences) {
    if (s.text == cell) return ScoreSentence(rules, ClaimScorer::Default(), s.masked, ClassifySentence(rules, s.masked),
                                             places.Of(s), /*diagnosis=*/true);
  }
  FAIL("no cell " << cell);
  return {};
}

TEST_CASE("Scorer: the strongest clause decides") {
  // The first clause carries a defect form, the last the cause: the
  // sentence is weighed as its last clause, not its first.
  const ClaimScore s = Score(
      "The list is created once, and every call that doesn't pass its own list appends to it - that's why the "
      "second page still has the first page's links.");
  CHECK(s.claim);
  CHECK(HasFeature(s, "cue:claim.is-why"));
}

TEST_CASE("Scorer: the new behaviour a change gives is no cause") {
  // Issue 13, class 3: the effect of the agent's own change, set against
  // the old behaviour; "instead of" alone can still state a cause.
  const ClaimScore effect = Score("The query is now cancelled by Postgres, so the request times out after 10 s instead of hanging.");
  CHECK(HasFeature(effect, "feature:new-behaviour"));
  CHECK_FALSE(effect.claim);
  CHECK_FALSE(Score("现在慢查询会直接返回超时错误，而不是一直卡住。").claim);
  CHECK(Score("The worker reads the old path instead of the new one, so every import fails.").claim);
}

TEST_CASE("Scorer: a cell under a cause label is read as the label's line") {
  // "| Cause | X |" is "Cause: X" (spec section 2): the label's form weighs,
  // with no cue of the cell's own needed.
  const ClaimScore row = ScoreCell("| Item | Value |\n|---|---|\n| Cause | the registry token expired |\n| Fix | renew it |\n",
                                   "the registry token expired");
  CHECK(row.claim);
  CHECK(HasFeature(row, "feature:form.cause-label"));
  CHECK_FALSE(HasFeature(row, "place-only"));
  const ClaimScore zh = ScoreCell("| 项目 | 结论 |\n|---|---|\n| 根因 | 定时任务清空了缓存目录 |\n", "定时任务清空了缓存目录");
  CHECK(zh.claim);
  // The label scopes over its cell as over its line: a hedged cell, or a
  // cause not known yet, is no claim; the other rows are not read as causes.
  CHECK_FALSE(ScoreCell("| Item | Value |\n|---|---|\n| Cause | possibly the registry token |\n", "possibly the registry token").claim);
  CHECK_FALSE(ScoreCell("| Item | Value |\n|---|---|\n| Cause | unknown so far |\n", "unknown so far").claim);
  CHECK_FALSE(ScoreCell("| Item | Value |\n|---|---|\n| Cause | x |\n| Fix | renew the registry token |\n",
                        "renew the registry token").claim);
  // The label cell itself is no claim, as a heading is none: the cell it
  // labels carries the claim (a reason would list "Root cause" otherwise).
  const ClaimScore label = ScoreCell("| Item | Value |\n|---|---|\n| Root cause | the registry token expired |\n", "Root cause");
  CHECK_FALSE(label.claim);
  CHECK(label.overruled == "label cell");
  const ClaimScore head = ScoreCell("| Symptom | Root cause |\n|---|---|\n| pulls fail | the registry token expired |\n",
                                    "Root cause");
  CHECK_FALSE(head.claim);
  // A lone cell labels nothing: it is weighed as any cell.
  CHECK(ScoreCell("| Root cause: the registry token expired |\n|---|\n", "Root cause: the registry token expired")
            .overruled.empty());
}

TEST_CASE("Scorer: a line or row labelled as the symptom states no cause without a connective") {
  // "Symptom | Cause | Fix" summaries: the symptom's failure words are what
  // was seen, not why (issue 13, class 3: observations with no cause).
  const ClaimScore line = Score("**Symptom:** the nightly export is blocking every other job in the queue.");
  CHECK_FALSE(line.claim);
  CHECK(line.overruled == "symptom label");
  CHECK_FALSE(ScoreCell("| | |\n|---|---|\n| Symptom | both pods crash on start, 14 restarts each |\n| Cause | x |\n",
                        "both pods crash on start, 14 restarts each")
                  .claim);
  CHECK_FALSE(Score("**现象**：两个 pod 启动就崩溃，各重启了 14 次。").claim);
  // A connective of its own makes it a claim again; the label is no exemption.
  CHECK(Score("Symptom: the pods crash on start because the secret holds the old database IP.").claim);
  CHECK(Score("现象：pod 启动就崩溃，因为密钥里还是旧数据库的 IP。").claim);
}

TEST_CASE("Scorer: a claim form without a connective is scored (identification, label, discovery)") {
  for (const char* text : {"That is what exhausts the connection pool.", "Culprit: the nightly cron job.",
                           "Got it: the worker reads the old config path.", "罪魁祸首是定时任务。"}) {
    INFO(text);
    const ClaimScore s = Score(text);
    CHECK(s.scored);
    CHECK(s.rule >= 0);
  }
  // A label is a claim form across its colon, though the part after the
  // colon carries a connective of its own and its traits are read there.
  CHECK(HasFeature(Score("- **Cause:** the nightly cron job deletes the temp folder."), "feature:form.cause-label"));
  // "- Cause: X" in a list is the spec's label form too: the list item is
  // the label's line, not list prose, and weighs apart.
  const ClaimScore item = Score("- Cause: the registry token expired");
  CHECK(item.claim);
  CHECK(HasFeature(item, "unit:labelled-item"));
  CHECK_FALSE(HasFeature(item, "unit:list-item"));
  CHECK_FALSE(Score("- Cause: not known yet, the log stops at the upload").claim);
  CHECK(HasFeature(Score("- the registry token expired because nobody renewed it"), "unit:list-item"));
  // The spec's forms without a connective are claims on their own in a
  // diagnosis turn.
  for (const char* text : {"It's a permissions problem on the volume, not a bug in the app.",
                           "Verdict - the cache key omits the locale.", "Turns out the importer reads the whole file at once.",
                           "The container has a height of 0, which is what hides the chart."}) {
    INFO(text);
    CHECK(Score(text).claim);
  }
  // Traits of other clauses weigh apart from the claim clause's; a plan
  // after the claim is the offer's own and does not weigh at all.
  const ClaimScore before = Score("We need to rerun it, but the job failed because the disk filled.");
  CHECK(HasFeature(before, "feature:plan@sentence"));
  CHECK_FALSE(HasFeature(before, "feature:plan"));
  const ClaimScore after = Score("The job failed because the disk filled, and I'll add an alert.");
  CHECK_FALSE(HasFeature(after, "feature:plan@sentence"));
  CHECK_FALSE(HasFeature(after, "feature:plan"));
}

}  // namespace
}  // namespace causegate::rules
