#include "rules/sentence_split.h"

#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

namespace causegate::rules {
namespace {

std::vector<std::string> Slices(std::string_view text, const std::vector<TextRange>& ranges) {
  std::vector<std::string> out;
  for (const TextRange& r : ranges) out.emplace_back(text.substr(r.begin, r.end - r.begin));
  return out;
}

TEST_CASE("FindQuotedSpans pairs quote marks", "[sentence_split]") {
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> fragments;  // contents of fragment spans
    std::vector<std::string> masked;     // every span, marks included
  };
  const std::vector<Case> cases = {
      {"double",
       R"(log says "Reason: OOMKilled" and "Exit Code: 137".)",
       {"Reason: OOMKilled", "Exit Code: 137"},
       {R"("Reason: OOMKilled")", R"("Exit Code: 137")"}},
      {"curly with inner apostrophes",
       "shows \u201CNo module named 'yaml'\u201D here",
       {"No module named 'yaml'"},
       {"\u201CNo module named 'yaml'\u201D"}},
      {"corner and white corner",
       "\u300C\u78C1\u76D8\u7A7A\u95F4\u4E0D\u8DB3\u300D\u548C\u300E"
       "x\u300F",
       {"\u78C1\u76D8\u7A7A\u95F4\u4E0D\u8DB3", "x"},
       {"\u300C\u78C1\u76D8\u7A7A\u95F4\u4E0D\u8DB3\u300D", "\u300Ex\u300F"}},
      {"nested kinds are literal",
       "\u300C\u4ED6\u8BF4\u300Ey\u300F\u300D",
       {"\u4ED6\u8BF4\u300Ey\u300F"},
       {"\u300C\u4ED6\u8BF4\u300Ey\u300F\u300D"}},
      {"unbalanced opener is text", R"(a "b c)", {}, {}},
      {"single quotes mask only",
       "the log says 'caused by: NullPointerException' there",
       {},
       {"'caused by: NullPointerException'"}},
      {"apostrophes are not quotes", "it's the users' fault, don't", {}, {}},
      {"apostrophe inside a single-quoted span",
       "says 'can't open file', ok",
       {},
       {"'can't open file'"}},
      {"single quote closes before punctuation", "named 'yaml'.", {}, {"'yaml'"}},
      {"single quote does not cross lines", "a 'b\nc' d", {}, {}},
      {"curly single quotes mask only", "says \u2018x y\u2019 now", {}, {"\u2018x y\u2019"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const std::vector<QuotedSpan> spans = FindQuotedSpans(c.text, {});
    std::vector<std::string> fragments;
    std::vector<std::string> masked;
    for (const QuotedSpan& s : spans) {
      masked.push_back(c.text.substr(s.span.begin, s.span.end - s.span.begin));
      if (s.is_fragment) {
        fragments.push_back(c.text.substr(s.content.begin, s.content.end - s.content.begin));
      }
    }
    CHECK(fragments == c.fragments);
    CHECK(masked == c.masked);
  }
}

TEST_CASE("FindQuotedSpans ignores marks inside code spans", "[sentence_split]") {
  // Rendered text of: run `echo "a` then "real quote" ok
  const std::string text = R"(run echo "a then "real quote" ok)";
  const std::vector<TextRange> code = {{4, 11}};  // echo "a
  const std::vector<QuotedSpan> spans = FindQuotedSpans(text, code);
  REQUIRE(spans.size() == 1);
  CHECK(text.substr(spans[0].content.begin, spans[0].content.end - spans[0].content.begin) ==
        "real quote");
}

TEST_CASE("FindQuotedSpans stays linear on hostile input", "[sentence_split]") {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += " 'a \u201C\u300C";
  const std::vector<QuotedSpan> spans = FindQuotedSpans(text, {});
  CHECK(spans.empty());
}

TEST_CASE("MatchEvidenceMarker", "[sentence_split]") {
  struct Case {
    const char* name;
    std::string line;
    bool matches;
    std::string rest;
    bool colon = false;
  };
  const std::vector<Case> cases = {
      {"colon", "Evidence: fatal: sorry", true, "fatal: sorry", true},
      {"lower case", "evidence: x", true, "x", true},
      {"upper case, no colon", "EVIDENCE - x", true, "- x", false},
      {"alone", "Evidence", true, "", false},
      {"space colon", "Evidence : x", true, "x", true},
      {"full-width colon", "Evidence\uFF1Ax", true, "x", true},
      {"leading blanks and bullet", "  - Evidence: x", true, "x", true},
      {"zh 证据", "\u8BC1\u636E\uFF1A\u65E5\u5FD7", true, "\u65E5\u5FD7", true},
      {"zh 依据", "\u4F9D\u636E\uFF1Afs01", true, "fs01", true},
      {"zh ascii colon", "\u8BC1\u636E: x", true, "x", true},
      {"zh without colon", "\u8BC1\u636E\u8868\u660E x", true, "\u8868\u660E x", false},
      {"not a prefix word", "Evidently it died", false, ""},
      {"evidenced", "Evidenced by x", false, ""},
      {"mid line", "Root cause: x. Evidence: y", false, ""},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const auto marker = MatchEvidenceMarker(c.line);
    REQUIRE(marker.has_value() == c.matches);
    if (marker) {
      CHECK(c.line.substr(marker->rest) == c.rest);
      CHECK(marker->colon == c.colon);
    }
  }
}

TEST_CASE("TrimEvidenceRest", "[sentence_split]") {
  CHECK(TrimEvidenceRest("  fatal: too many clients.  ") == "fatal: too many clients");
  CHECK(TrimEvidenceRest("x;:,.") == "x");
  CHECK(TrimEvidenceRest("\u78C1\u76D8\u6EE1\u4E86\u3002") == "\u78C1\u76D8\u6EE1\u4E86");
  CHECK(TrimEvidenceRest("a\uFF0C\uFF1B\uFF1A") == "a");
  CHECK(TrimEvidenceRest("| 48211 |") == "| 48211 |");
  CHECK(TrimEvidenceRest(" . ").empty());
}

TEST_CASE("StartsLikeListItem", "[sentence_split]") {
  CHECK(StartsLikeListItem("- a"));
  CHECK(StartsLikeListItem("2. b"));
  CHECK(StartsLikeListItem("3) c"));
  CHECK(StartsLikeListItem("\u2022 d"));
  CHECK_FALSE(StartsLikeListItem("2.14.0 broke it"));
  CHECK_FALSE(StartsLikeListItem("-x"));
  CHECK_FALSE(StartsLikeListItem("plain"));
}

TEST_CASE("SplitSentences", "[sentence_split]") {
  struct Case {
    const char* name;
    std::string text;
    std::vector<TextRange> masked;
    std::vector<std::size_t> hard_breaks;
    std::vector<std::string> sentences;
  };
  const std::vector<Case> cases = {
      {"periods", "It died. Then it restarted.", {}, {}, {"It died.", "Then it restarted."}},
      {"question and bang", "Is it OOM? No! Fine", {}, {}, {"Is it OOM?", "No!", "Fine"}},
      {"version numbers",
       "The 2.14.0 chart sets 256Mi. Raise it.",
       {},
       {},
       {"The 2.14.0 chart sets 256Mi.", "Raise it."}},
      {"abbreviations",
       "Use a fix, e.g. a retry, i.e. more. vs. that etc. done",
       {},
       {},
       {"Use a fix, e.g. a retry, i.e. more.", "vs. that etc. done"}},
      {"semicolon", "the slots are full; raise it", {}, {}, {"the slots are full;", "raise it"}},
      {"semicolon without blank", "a;b", {}, {}, {"a;b"}},
      {"chinese enders",
       "\u6839\u56E0\u662F\u78C1\u76D8\u3002\u6539\u5927\uFF1B\u597D\uFF01"
       "\u5417\uFF1F",
       {},
       {},
       {"\u6839\u56E0\u662F\u78C1\u76D8\u3002", "\u6539\u5927\uFF1B", "\u597D\uFF01",
        "\u5417\uFF1F"}},
      {"soft break joins",
       "The job died\nbecause of OOM.",
       {},
       {},
       {"The job died\nbecause of OOM."}},
      {"hard break splits", "Root cause\nOOM", {}, {10}, {"Root cause", "OOM"}},
      {"no split inside masked",
       "It says \"a. b\" here. Next",
       {{8, 14}},
       {},
       {"It says \"a. b\" here.", "Next"}},
      {"closing paren after period", "(see above.) Next", {}, {}, {"(see above.)", "Next"}},
      {"punctuation-only dropped", "Findings:\n:", {}, {9}, {"Findings:"}},
      {"ellipsis", "Wait... then", {}, {}, {"Wait...", "then"}},
      {"list number at sentence start", "1. first. 2. second", {}, {}, {"1. first.", "2. second"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(Slices(c.text, SplitSentences(c.text, c.masked, c.hard_breaks)) == c.sentences);
  }
}

}  // namespace
}  // namespace causegate::rules
