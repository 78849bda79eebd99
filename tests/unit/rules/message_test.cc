#include "rules/message.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace causegate::rules {
namespace {

using Origin = FragmentOrigin;

std::vector<std::string> SentenceTexts(const Message& m) {
  std::vector<std::string> out;
  for (const Sentence& s : m.sentences) out.push_back(s.text);
  return out;
}

std::vector<std::string> MaskedTexts(const Message& m) {
  std::vector<std::string> out;
  for (const Sentence& s : m.sentences) out.push_back(s.masked);
  return out;
}

std::vector<std::string> Texts(const Message& m, const std::vector<int>& indexes) {
  std::vector<std::string> out;
  for (const int i : indexes) out.push_back(m.fragments.at(static_cast<std::size_t>(i)).text);
  return out;
}

std::vector<std::string> AllFragmentTexts(const Message& m) {
  std::vector<std::string> out;
  for (const Fragment& f : m.fragments) out.push_back(f.text);
  return out;
}

// The first sentence whose text contains `needle`; fails the test if none.
const Sentence& SentenceWith(const Message& m, std::string_view needle) {
  for (const Sentence& s : m.sentences) {
    if (s.text.find(needle) != std::string::npos) return s;
  }
  FAIL("no sentence contains: " << needle);
  return m.sentences.front();  // unreachable
}

TEST_CASE("ParseMessage splits prose into sentences", "[message]") {
  struct Case {
    const char* name;
    std::string markdown;
    std::vector<std::string> sentences;
  };
  const std::vector<Case> cases = {
      {"two sentences",
       "The job died because it ran out of memory. Raise the limit.",
       {"The job died because it ran out of memory.", "Raise the limit."}},
      {"emphasis removed, code kept",
       "The **root cause** is `OOMKilled` on *node-3*.",
       {"The root cause is OOMKilled on node-3."}},
      {"soft break joins with a space",
       "The pods crash-loop because\nthe limit is 256Mi.",
       {"The pods crash-loop because the limit is 256Mi."}},
      {"hard break splits", "Root cause  \nOOM kill", {"Root cause", "OOM kill"}},
      {"paragraphs, headings, list items",
       "## Diagnosis\n\nIt failed.\n\n- first item\n- second item\n",
       {"Diagnosis", "It failed.", "first item", "second item"}},
      {"loose list items hold paragraphs", "- one\n\n  two\n\n- three\n", {"one", "two", "three"}},
      {"nested list", "- outer\n  - inner\n", {"outer", "inner"}},
      {"table cells",
       "| Symptom | Cause |\n|---|---|\n| 502 | timeout |\n",
       {"Symptom", "Cause", "502", "timeout"}},
      {"version numbers do not split",
       "The 2.14.0 values set 256Mi. Raise it.",
       {"The 2.14.0 values set 256Mi.", "Raise it."}},
      {"chinese",
       "\u6839\u56E0\u662F fp16 \u6EA2\u51FA\u3002\u6539\u7528 bf16 \u5373\u53EF\u3002",
       {"\u6839\u56E0\u662F fp16 \u6EA2\u51FA\u3002", "\u6539\u7528 bf16 \u5373\u53EF\u3002"}},
      {"fenced log with causal words makes no sentence",
       "Here is the log:\n\n```\nthe job failed because of OOM\n```\n",
       {"Here is the log:"}},
      {"block quote with causal words makes no sentence",
       "> The root cause is the NFS timeout.\n> - caused by disk full\n",
       {}},
      {"indented code makes no sentence", "Log:\n\n    crashed because OOM\n", {"Log:"}},
      {"punctuation-only line dropped", "Findings:\n\n:\n", {"Findings:"}},
      {"strikethrough text kept", "It is ~~not~~ the disk.", {"It is not the disk."}},
      {"html block is prose without tags",
       "<details>\n<summary>Why</summary>\nIt crashed because of OOM.\n</details>\n",
       {"Why It crashed because of OOM."}},
      {"entities decoded", "A &amp; B failed.", {"A & B failed."}},
      // Inline HTML is read as a renderer shows it: no tag, no comment, and
      // nothing between the halves of a word they split.
      {"comment inside a word joins it", "The root<!-- x -->cause is OOM.", {"The rootcause is OOM."}},
      {"tags inside a word join it", "The ro<span>ot</span> cause is OOM.", {"The root cause is OOM."}},
      {"tags around a word", "The <b>root</b> <i class=\"x\">cause</i> is OOM.", {"The root cause is OOM."}},
      {"comment with a tag in it", "It crashed be<!-- <b> -->cause of OOM.", {"It crashed because of OOM."}},
      {"br is a line break", "The root cause<br>is OOM.", {"The root cause is OOM."}},
      {"comment inside a word in an html block",
       "<div>\nThe root<!-- a > b -->cause is OOM.\n</div>\n",
       {"The rootcause is OOM."}},
      // A block element's tag is a line break though the block is on one line.
      {"block tags on one line break it",
       "<details><summary>Root cause</summary>The cron job filled the disk.</details>\n",
       {"Root cause The cron job filled the disk."}},
      {"comment over lines in an html block",
       "<div>\nIt failed be<!-- one\ntwo -->cause of OOM.\n</div>\n",
       {"It failed because of OOM."}},
      {"list-like line inside a paragraph starts a sentence",
       "Findings\n2. the cache expired\n3. the retry failed",
       {"Findings", "2. the cache expired", "3. the retry failed"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(SentenceTexts(ParseMessage(c.markdown)) == c.sentences);
  }
}

TEST_CASE("Sentence masked text replaces code and quotes", "[message]") {
  struct Case {
    const char* name;
    std::string markdown;
    std::vector<std::string> masked;
  };
  const std::vector<Case> cases = {
      {"inline code", "The cause is `OOM` here.", {"The cause is QUOTE here."}},
      {"double quotes",
       "describe shows \"Reason: OOMKilled\" twice.",
       {"describe shows QUOTE twice."}},
      {"curly quotes",
       "The log shows \u201CNo module named 'yaml'\u201D.",
       {"The log shows QUOTE."}},
      {"corner quotes",
       "\u539F\u56E0\u662F\u300C\u78C1\u76D8\u7A7A\u95F4\u4E0D\u8DB3\u300D\u3002",
       {"\u539F\u56E0\u662FQUOTE\u3002"}},
      {"white corner quotes",
       "\u65E5\u5FD7\u91CC\u662F\u300Ex\u300F",
       {"\u65E5\u5FD7\u91CC\u662FQUOTE"}},
      {"single-quoted reported speech",
       "the log says 'caused by: NullPointerException' at start.",
       {"the log says QUOTE at start."}},
      {"apostrophes stay", "It's the users' job, don't.", {"It's the users' job, don't."}},
      {"emphasis dropped, soft break as space",
       "**Root cause**:\nthe `x` limit.",
       {"Root cause: the QUOTE limit."}},
      {"quote containing code is one placeholder",
       "it says \"run `make` now\" ok",
       {"it says QUOTE ok"}},
      {"inline html dropped, words joined",
       "the ro<span>ot</span> c<!-- -->au<b>se</b> is `x`",
       {"the root cause is QUOTE"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(MaskedTexts(ParseMessage(c.markdown)) == c.masked);
  }
}

struct ExpectedFragment {
  Origin origin;
  std::string text;
  bool long_enough;
};

bool operator==(const ExpectedFragment& e, const Fragment& f) {
  return e.origin == f.origin && e.text == f.text && e.long_enough == f.long_enough;
}

std::ostream& operator<<(std::ostream& os, const Fragment& f) {
  return os << FragmentOriginName(f.origin) << ":\"" << f.text << "\""
            << (f.long_enough ? "" : " (short)");
}

std::ostream& operator<<(std::ostream& os, const ExpectedFragment& f) {
  return os << FragmentOriginName(f.origin) << ":\"" << f.text << "\""
            << (f.long_enough ? "" : " (short)");
}

TEST_CASE("ParseMessage finds fragments", "[message]") {
  struct Case {
    const char* name;
    std::string markdown;
    std::vector<ExpectedFragment> fragments;
  };
  const std::vector<Case> cases = {
      {"inline code",
       "It died: `Out of memory: Killed process 48121 (python)`.",
       {{Origin::kInlineCode, "Out of memory: Killed process 48121 (python)", true}}},
      {"short inline code",
       "Root cause: `OOM`, PID `77310`.",
       {{Origin::kInlineCode, "OOM", false}, {Origin::kInlineCode, "77310", false}}},
      {"eight code points is enough",
       "`12345678` and `1234567`",
       {{Origin::kInlineCode, "12345678", true}, {Origin::kInlineCode, "1234567", false}}},
      {"corner quote with six Han",
       "\u539F\u56E0\u662F\u300C\u78C1\u76D8\u7A7A\u95F4\u4E0D\u8DB3"
       "\u300D\u3002",
       {{Origin::kQuoted, "\u78C1\u76D8\u7A7A\u95F4\u4E0D\u8DB3", true}}},
      {"three Han is short",
       "\u300C\u6EA2\u51FA\u4E86\u300D",
       {{Origin::kQuoted, "\u6EA2\u51FA\u4E86", false}}},
      {"curly quotes",
       "The log shows \u201CModuleNotFoundError: No module named 'yaml'\u201D.",
       {{Origin::kQuoted, "ModuleNotFoundError: No module named 'yaml'", true}}},
      {"double quotes",
       "describe shows \"Reason: OOMKilled\" with \"Exit Code: 137\".",
       {{Origin::kQuoted, "Reason: OOMKilled", true}, {Origin::kQuoted, "Exit Code: 137", true}}},
      {"white corner quotes",
       "\u65E5\u5FD7\u91CC\u662F\u300EModuleNotFoundError\u300F",
       {{Origin::kQuoted, "ModuleNotFoundError", true}}},
      {"single quotes are not fragments", "the log says 'caused by: NullPointerException'.", {}},
      {"fenced block: one per non-empty line",
       "Log:\n\n```\n  first line here  \n\nsecond \"line\" here\n```\n",
       {{Origin::kCodeLine, "first line here", true},
        {Origin::kCodeLine, "second \"line\" here", true}}},
      {"indented code block",
       "Log:\n\n    WARNING checkpoint save failed\n",
       {{Origin::kCodeLine, "WARNING checkpoint save failed", true}}},
      {"block quote: one per non-empty line, quotes literal",
       "> fatal: sorry, too many clients already\n>\n> \"quoted\" `code` **bold**\n",
       {{Origin::kQuoteLine, "fatal: sorry, too many clients already", true},
        {Origin::kQuoteLine, "\"quoted\" code bold", true}}},
      {"everything in a block quote is quote lines",
       "> - item one here\n> - item two here\n>\n> ```\n> code in quote\n> ```\n",
       {{Origin::kQuoteLine, "item one here", true},
        {Origin::kQuoteLine, "item two here", true},
        {Origin::kQuoteLine, "code in quote", true}}},
      {"evidence line: inline code and the rest",
       "Evidence: dmesg shows `Out of memory: Killed process 48121 (python)` at 14:23, the "
       "minute the last checkpoint was written.",
       {{Origin::kEvidenceLine,
         "dmesg shows Out of memory: Killed process 48121 (python) at 14:23, the minute the "
         "last checkpoint was written",
         true},
        {Origin::kInlineCode, "Out of memory: Killed process 48121 (python)", true}}},
      {"evidence line: plain",
       "Evidence: fatal: sorry, too many clients already.",
       {{Origin::kEvidenceLine, "fatal: sorry, too many clients already", true}}},
      {"evidence line: emphasis",
       "**Evidence**: fatal: sorry, too many clients already",
       {{Origin::kEvidenceLine, "fatal: sorry, too many clients already", true}}},
      {"evidence line: emphasis around the colon too",
       "**Evidence:** Lock wait timeout exceeded",
       {{Origin::kEvidenceLine, "Lock wait timeout exceeded", true}}},
      {"evidence line: only a code span gives one fragment",
       "Evidence: `Lock wait timeout exceeded`.",
       {{Origin::kInlineCode, "Lock wait timeout exceeded", true}}},
      {"evidence line: 证据",
       "\u8BC1\u636E\uFF1ALock wait timeout exceeded; try restarting "
       "transaction\u3002",
       {{Origin::kEvidenceLine, "Lock wait timeout exceeded; try restarting transaction", true}}},
      {"evidence line: 依据",
       "\u4F9D\u636E\uFF1Afs01.internal:/export/runs   50T   50T     0 100% /mnt/nfs/runs",
       {{Origin::kEvidenceLine, "fs01.internal:/export/runs   50T   50T     0 100% /mnt/nfs/runs",
         true}}},
      {"evidence line with nothing after it",
       "Evidence:\n\n- `x`\n",
       {{Origin::kInlineCode, "x", false}}},
      {"Evidence in mid-line is not an evidence line",
       "Root cause: NFS timeout. Evidence: `nfs: server fs01 not responding`",
       {{Origin::kInlineCode, "nfs: server fs01 not responding", true}}},
      {"code span spelling Evidence is not a marker",
       "`Evidence: foo bar baz` is a string",
       {{Origin::kInlineCode, "Evidence: foo bar baz", true}}},
      {"empty quotes and blank code make nothing", "a \"\" b ` ` c", {}},
      {"no colon: no rest fragment", "Evidence for the OOM kill follows", {}},
      {"heading: no rest fragment", "## Evidence\n\n## \u8BC1\u636E\n", {}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Message m = ParseMessage(c.markdown);
    REQUIRE(m.fragments.size() == c.fragments.size());
    for (std::size_t i = 0; i < c.fragments.size(); ++i) {
      INFO("fragment " << i);
      CHECK(c.fragments[i] == m.fragments[i]);
    }
  }
}

TEST_CASE("Fragments are placed with their claims", "[message]") {
  struct Case {
    const char* name;
    std::string markdown;
    std::string claim;                // part of the claim sentence
    std::vector<std::string> placed;  // FragmentsFor(claim), in order
  };
  const std::vector<Case> cases = {
      {"same paragraph",
       "The job died because of `Out of memory: Killed`.\n\nUnrelated `other text here`.",
       "The job died",
       {"Out of memory: Killed"}},
      {"fenced block directly after the paragraph",
       "The job died because of OOM:\n\n```\nOut of memory: Killed\n```\n",
       "The job died",
       {"Out of memory: Killed"}},
      {"list following a claim paragraph",
       "GPU use is 0 because workers hang on NFS:\n- `61311 D    rpc_wait_bit_killable`\n"
       "- `nfs4_call_sync_sequence+0x6a/0xa0`\n",
       "GPU use is 0",
       {"61311 D    rpc_wait_bit_killable", "nfs4_call_sync_sequence+0x6a/0xa0"}},
      {"run of list, code and quote after the paragraph",
       "It died because of OOM:\n\n- `first fragment`\n\n```\nsecond fragment\n```\n\n"
       "> third fragment\n\nNext paragraph `not placed here`.\n",
       "It died",
       {"first fragment", "second fragment", "third fragment"}},
      {"next paragraph ends the run",
       "It died because of OOM.\n\nSomething else.\n\n```\nlog line here\n```\n",
       "It died",
       {}},
      {"heading ends the run",
       "It died because of OOM.\n\n## Logs\n\n```\nlog line here\n```\n",
       "It died",
       {}},
      {"block quote after the paragraph",
       "The deadlock is caused by lock order.\n> Process 8840 waits for ShareLock\n",
       "deadlock",
       {"Process 8840 waits for ShareLock"}},
      {"claim in a list item gets its nested blocks",
       "- The cache expired because the TTL is 1 s:\n  ```\n  assert 409 == 201\n  ```\n"
       "  - `sub item fragment`\n- other item `not placed`\n",
       "cache expired",
       {"assert 409 == 201", "sub item fragment"}},
      {"claim in a loose list item gets its other paragraphs",
       "- It died because of OOM.\n\n  `Out of memory: Killed`\n\n- Other `elsewhere`.\n",
       "It died",
       {"Out of memory: Killed"}},
      {"claim in a nested item gets only its own",
       "- outer `outer fragment`\n  - inner claim because of `inner fragment`\n",
       "inner claim",
       {"inner fragment"}},
      {"outer item gets nested items",
       "- outer claim `outer fragment`\n  - inner `inner fragment`\n",
       "outer claim",
       {"outer fragment", "inner fragment"}},
      {"claim in a list item followed by an Evidence section",
       "Findings:\n- It fails because ORDERS is empty.\n- It only fails under seed 6.\n\n"
       "Evidence:\n- `FAILED tests/test_orders.py::test_refund_idempotent`\n"
       "- `Using --randomly-seed=6`\n\nFix: add a fixture.\n",
       "ORDERS is empty",
       {"FAILED tests/test_orders.py::test_refund_idempotent", "Using --randomly-seed=6"}},
      {"table cell gets its row",
       "| Cause | Evidence |\n|---|---|\n| OOM kill | `Out of memory: Killed` |\n"
       "| other | `not this row` |\n",
       "OOM kill",
       {"Out of memory: Killed"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Message m = ParseMessage(c.markdown);
    const Sentence& claim = SentenceWith(m, c.claim);
    CHECK(Texts(m, m.FragmentsFor(claim)) == c.placed);
  }
}

TEST_CASE("The evidence section", "[message]") {
  struct Case {
    const char* name;
    std::string markdown;
    std::vector<std::string> evidence;     // texts of evidence_fragments
    std::vector<std::string> in_section;   // sentences in the section
    std::vector<std::string> out_section;  // sentences outside it
  };
  const std::vector<Case> cases = {
      {"fenced block under Evidence:",
       "Root cause: the IB receive failed on gpu-12.\n\nEvidence:\n```\n"
       "NCCL WARN NET/IB : Got completion from peer\n```\n\nI'd drain gpu-12.\n",
       {"NCCL WARN NET/IB : Got completion from peer"},
       {"Evidence:", "I'd drain gpu-12."},
       {"Root cause: the IB receive failed on gpu-12."}},
      {"two fenced blocks in an evidence section",
       "The checkpoints stop because the export is full.\n\nEvidence:\n```\n"
       "fs01.internal:/export/runs 50T 50T 0 100%\n```\n```\n"
       "WARNING checkpoint save failed: [Errno 28]\n```\n",
       {"fs01.internal:/export/runs 50T 50T 0 100%", "WARNING checkpoint save failed: [Errno 28]"},
       {},
       {"The checkpoints stop because the export is full."}},
      {"Evidence lines in one paragraph",
       "Postgres refuses clients because every slot is taken.\n"
       "Evidence: fatal: sorry, too many clients already\nEvidence: orders-worker | 184\n\n"
       "Cut the pool to 5.\n",
       {"fatal: sorry, too many clients already", "orders-worker | 184"},
       {"Evidence: fatal: sorry, too many clients already", "Evidence: orders-worker | 184",
        "Cut the pool to 5."},
       {"Postgres refuses clients because every slot is taken."}},
      {"soft break: second line starts with Evidence:",
       "The job died because of OOM\nEvidence: `Out of memory: Killed process 48121`",
       {"Out of memory: Killed process 48121"},
       {"Evidence: Out of memory: Killed process 48121"},
       {"The job died because of OOM"}},
      {"heading opens and the next heading closes",
       "## Evidence\n\n`first fragment`\n\n## Fix\n\nIt died because `second fragment`.\n",
       {"first fragment"},
       {"Evidence", "first fragment"},
       {"Fix", "It died because second fragment."}},
      {"an Evidence heading after a section reopens it",
       "Evidence: `first fragment`\n\n## Notes\n\n`not evidence`\n\n### Evidence for the OOM\n\n"
       "> quoted evidence line\n",
       {"first fragment", "quoted evidence line"},
       {"Evidence for the OOM"},
       {"Notes", "not evidence"}},
      {"证据 lines",
       "\u6263\u51CF\u62A5\u9519\u7684\u539F\u56E0\u662F\u884C\u9501\u3002\n"
       "\u8BC1\u636E\uFF1ALock wait timeout exceeded\n",
       {"Lock wait timeout exceeded"},
       {"\u8BC1\u636E\uFF1ALock wait timeout exceeded"},
       {"\u6263\u51CF\u62A5\u9519\u7684\u539F\u56E0\u662F\u884C\u9501\u3002"}},
      {"依据 with a list",
       "\u4F9D\u636E\uFF1A\n- `WARNING checkpoint save failed`\n",
       {"WARNING checkpoint save failed"},
       {},
       {}},
      {"**Evidence**: emphasis",
       "It died because of OOM.\n\n**Evidence**: `Out of memory: Killed`\n",
       {"Out of memory: Killed"},
       {"Evidence: Out of memory: Killed"},
       {"It died because of OOM."}},
      {"a heading inside a block quote does not close the section",
       "Evidence:\n\n> # Heading in quote\n\n`still evidence`\n",
       {"Heading in quote", "still evidence"},
       {},
       {}},
      {"a table column headed Evidence opens no section",
       "| Cause | Evidence |\n|---|---|\n| OOM | `Out of memory: Killed` |\n\nAfter it.\n",
       {},
       {},
       {"After it.", "Evidence"}},
      {"Evidence without a colon opens the section",
       "It died.\n\nEvidence for the OOM kill is below.\n\n```\nOut of memory\n```\n",
       {"Out of memory"},
       {"Evidence for the OOM kill is below."},
       {"It died."}},
      {"no section",
       "It died because of `OOM kill here`.",
       {},
       {},
       {"It died because of OOM kill here."}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Message m = ParseMessage(c.markdown);
    CHECK(Texts(m, m.evidence_fragments) == c.evidence);
    for (const std::string& s : c.in_section) {
      INFO("in section: " << s);
      CHECK(SentenceWith(m, s).in_evidence_section);
    }
    for (const std::string& s : c.out_section) {
      INFO("outside section: " << s);
      CHECK_FALSE(SentenceWith(m, s).in_evidence_section);
    }
  }
}

TEST_CASE("FragmentsFor merges the unit and the evidence section", "[message]") {
  const Message m = ParseMessage(
      "It died because of `first fragment`.\n\nEvidence: `second fragment`\n\n"
      "Another claim `third fragment`.\n");
  // The section runs to the end of the message.
  CHECK(Texts(m, m.evidence_fragments) ==
        std::vector<std::string>{"second fragment", "third fragment"});
  CHECK(Texts(m, m.FragmentsFor(SentenceWith(m, "It died"))) ==
        std::vector<std::string>{"first fragment", "second fragment", "third fragment"});
  // The claim after the Evidence line is in the section: no duplicates.
  CHECK(Texts(m, m.FragmentsFor(SentenceWith(m, "Another claim"))) ==
        std::vector<std::string>{"second fragment", "third fragment"});
  Sentence orphan;
  orphan.unit = -1;
  CHECK(Texts(m, m.FragmentsFor(orphan)) ==
        std::vector<std::string>{"second fragment", "third fragment"});
}

TEST_CASE("Offsets point into the message", "[message]") {
  const std::string md =
      "Intro.\n\n- **Root** cause: `Out of memory`\n\n> quoted line\n\n```\ncode line\n```\n"
      "\u539F\u56E0\u662F\u300C\u78C1\u76D8\u7A7A\u95F4\u4E0D\u8DB3\u300D\u3002 Evidence: y\n"
      "Evidence: rest of line\n";
  const Message m = ParseMessage(md);
  for (const Sentence& s : m.sentences) {
    INFO(s.text);
    REQUIRE(s.offset < md.size());
  }
  CHECK(md.substr(SentenceWith(m, "Intro").offset, 6) == "Intro.");
  // The first character of the sentence's text, past any markup.
  CHECK(md.substr(SentenceWith(m, "Root cause").offset, 4) == "Root");
  for (const Fragment& f : m.fragments) {
    INFO(f.text);
    if (f.origin == Origin::kEvidenceLine && f.text == "rest of line") {
      CHECK(md.substr(f.offset, f.text.size()) == f.text);
      continue;
    }
    CHECK(md.substr(f.offset, f.text.size()) == f.text);
  }
  CHECK(AllFragmentTexts(m) == std::vector<std::string>{"Out of memory", "quoted line", "code line",
                                                        "\u78C1\u76D8\u7A7A\u95F4\u4E0D\u8DB3",
                                                        "rest of line"});
}

TEST_CASE("ParseMessage never fails on odd input", "[message]") {
  struct Case {
    const char* name;
    std::string markdown;
  };
  std::vector<Case> cases = {
      {"empty", ""},
      {"blank", "  \n\n \t\n"},
      {"invalid utf-8", std::string("caused by \xff\xfe \xe6\x97 `\xc3` \"\xe2\x80\" x")},
      {"nul bytes", std::string("a\0b because `c\0d`", 18)},
      {"unclosed fence", "```\nnever closed\nbecause"},
      {"unclosed code span", "`open because x"},
      {"lone quote marks", "\" \u201C \u300C \u300E ' \u2018"},
  };
  std::string deep_lists;
  for (int i = 0; i < 300; ++i)
    deep_lists += std::string(static_cast<std::size_t>(i) * 2, ' ') + "- level `frag`\n";
  cases.push_back({"deep lists", deep_lists});
  cases.push_back({"deep quotes", std::string(5000, '>') + " deep because `x`"});
  std::string many;
  for (int i = 0; i < 20000; ++i) many += "Evidence: \"a\" 'b `c` \u300Cd\u300D.\n";
  cases.push_back({"many evidence lines", many});
  std::string huge(3u << 20, 'a');
  huge += " end.";
  cases.push_back({"over the size limit", huge});
  for (const Case& c : cases) {
    INFO(c.name);
    const Message m = ParseMessage(c.markdown);
    for (const Sentence& s : m.sentences) {
      CHECK(s.unit >= 0);
      CHECK(static_cast<std::size_t>(s.unit) < m.units.size());
      CHECK(s.offset <= c.markdown.size());
    }
    for (const Unit& u : m.units) {
      CHECK(std::is_sorted(u.fragments.begin(), u.fragments.end()));
      for (const int f : u.fragments) CHECK(static_cast<std::size_t>(f) < m.fragments.size());
    }
    for (const Fragment& f : m.fragments) CHECK(f.offset <= c.markdown.size());
  }
}

TEST_CASE("Labelled cases parse, and cited cases have a citation", "[message][cases]") {
  const std::filesystem::path dir = std::filesystem::path(CAUSEGATE_SHARED_DIR) / "cases";
  if (!std::filesystem::is_directory(dir)) {
    WARN("no labelled cases at " << dir.string() << "; skipped");
    return;
  }
  int cited = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const nlohmann::json json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object() || !json.contains("final") || !json["final"].is_string()) continue;
    const std::string id = json.value("id", entry.path().stem().string());
    INFO(id);
    const Message m = ParseMessage(json["final"].get<std::string>());
    CHECK_FALSE(m.sentences.empty());
    if (id.find("-cited-") == std::string::npos) continue;
    ++cited;
    const bool any_long = std::any_of(m.fragments.begin(), m.fragments.end(),
                                      [](const Fragment& f) { return f.long_enough; });
    CHECK(any_long);
  }
  CHECK(cited > 0);
}

}  // namespace
TEST_CASE("ParseMessage: a body cell knows its column's header cell, a header cell none") {
  const Message m = ParseMessage("| Symptom | Cause |\n|---|---|\n| 502 | timeout |\n| 404 | bad route |\n");
  auto unit_of = [&m](const std::string& text) -> const Unit& {
    for (const Sentence& s : m.sentences) {
      if (s.text == text) return m.units[static_cast<std::size_t>(s.unit)];
    }
    FAIL("no sentence " << text);
    return m.units.front();
  };
  const int symptom = m.sentences[0].unit;
  const int cause = m.sentences[1].unit;
  CHECK(unit_of("Symptom").column_head == -1);
  CHECK(unit_of("Cause").column_head == -1);
  CHECK(unit_of("502").column_head == symptom);
  CHECK(unit_of("404").column_head == symptom);
  CHECK(unit_of("timeout").column_head == cause);
  CHECK(unit_of("bad route").column_head == cause);
  CHECK(unit_of("bad route").row_start == unit_of("404").row_start);
}

}  // namespace causegate::rules
