// FoldForRules: each disguise of a claim word undone, and everything that is
// not a disguise (case, punctuation, other scripts, bad bytes) left alone.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "evidence/text_fold.h"

namespace causegate::evidence {
namespace {

TEST_CASE("FoldForRules undoes disguised letters", "[text_fold]") {
  struct Case {
    const char* name;
    std::string in;
    std::string out;
  };
  const std::vector<Case> cases = {
      {"zero-width space inside a word", "bec\xe2\x80\x8b" "ause", "because"},
      {"zero-width joiner", "root c\xe2\x80\x8d" "ause", "root cause"},
      {"soft hyphen", "caus\xc2\xad" "ed by", "caused by"},
      {"word joiner and BOM", "\xef\xbb\xbf" "cau\xe2\x81\xa0sed", "caused"},
      {"Cyrillic a", "c\xd0\xb0used by", "caused by"},
      {"Cyrillic e and a", "b\xd0\xb5" "c\xd0\xb0use", "because"},
      {"Cyrillic o twice", "r\xd0\xbe\xd0\xbet cause", "root cause"},
      {"Cyrillic capital", "\xd0\xa1" "aused by", "Caused by"},
      {"Greek omicron", "r\xce\xbf\xce\xbft", "root"},
      {"full-width letters", "\xef\xbd\x82\xef\xbd\x85\xef\xbd\x83\xef\xbd\x81\xef\xbd\x95\xef\xbd\x93\xef\xbd\x85",
       "because"},
      {"full-width capitals and digits", "\xef\xbc\xaf\xef\xbc\xaf\xef\xbc\xad \xef\xbc\x91\xef\xbc\x93\xef\xbc\x97",
       "OOM 137"},
      {"mathematical bold", "\xf0\x9d\x90\x9b\xf0\x9d\x90\x9e", "be"},
      {"circled letter", "\xe2\x93\x91", "b"},
      {"ignorable between full-width letters", "\xef\xbd\x82\xe2\x80\x8b\xef\xbd\x85", "be"},
      // Look-alikes by the confusables skeleton, not by a table of our own.
      {"Cyrillic o, o and c", "r\u043e\u043et \u0441ause", "root cause"},
      {"Cyrillic capital I and small i", "\u0406t w\u0430s \u0456t", "It was it"},
      {"Latin alpha and dotless i", "c\u0251used by a m\u0131ssing key", "caused by a missing key"},
      {"Cherokee capital A", "\u13aa root cause", "A root cause"},
      {"a word wholly of look-alikes", "the \u0441\u0430\u0441\u04bb\u0435 was stale", "the cache was stale"},
      {"ligature", "\ufb01xed", "fixed"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(FoldForRules(c.in) == c.out);
  }
}

TEST_CASE("FoldForRules reads every Unicode space as a space and every dash as '-'", "[text_fold]") {
  const std::vector<std::string> spaces = {"\u00a0", "\u1680", "\u2000", "\u2001", "\u2002", "\u2003",
                                           "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u2009",
                                           "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"};
  for (const std::string& space : spaces) {
    INFO("space " << space);
    CHECK(FoldForRules("root" + space + "cause") == "root cause");
  }
  const std::vector<std::string> dashes = {"\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015",
                                           "\u2212", "\ufe58", "\ufe63", "\uff0d", "\u2e3a", "\u058a"};
  for (const std::string& dash : dashes) {
    INFO("dash " << dash);
    CHECK(FoldForRules("Verdict " + dash + " stale" + dash + "cache") == "Verdict - stale-cache");
  }
  // Zero-width spaces are ignorable: they join, they do not separate.
  CHECK(FoldForRules("ro\u200bot cause") == "root cause");
}

TEST_CASE("FoldForRules drops combining marks and bidi controls", "[text_fold]") {
  struct Case {
    const char* name;
    std::string in;
    std::string out;
  };
  const std::vector<Case> cases = {
      {"combining caron", "roo\u0165 cause", "root cause"},
      {"combining caron, decomposed", "root\u030c cause", "root cause"},
      {"stacked marks", "ca\u0301\u0308\u0323use", "cause"},
      {"precomposed accents", "c\u00e1us\u00e9d by", "caused by"},
      {"combining mark on a Cyrillic look-alike", "r\u043e\u0306ot", "root"},
      {"left-to-right and right-to-left marks", "be\u200ecau\u200fse", "because"},
      {"embeddings and overrides", "\u202a\u202broot\u202c \u202dcau\u202ese", "root cause"},
      {"isolates", "\u2066root\u2067 \u2068cause\u2069", "root cause"},
      {"Arabic letter mark", "cau\u061cse", "cause"},
      {"variation selector and tag character", "root\ufe0f ca\U000e0041use", "root cause"},
      {"combining grapheme joiner", "roo\u034ft", "root"},
      // Accents go in every script but the CJK ones; the letters stay.
      {"accents of a Greek word", "\u03bb\u03cc\u03b3\u03bf\u03c2", "\u03bb\u03bf\u03b3\u03bf\u03c2"},
      {"breve of a Cyrillic word", "\u0439\u043e\u0434", "\u0438\u043e\u0434"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(FoldForRules(c.in) == c.out);
  }
}

TEST_CASE("FoldForRules keeps what is not a disguise", "[text_fold]") {
  const std::vector<std::string> kept = {
      "",
      "The Build FAILED because: the cache (v2) was stale!",
      // zh patterns name full-width punctuation; Han is never touched.
      "\xe6\xa0\xb9\xe5\x9b\xa0\xe6\x98\xaf\xef\xbc\x9a\xe7\xa3\x81\xe7\x9b\x98\xe6\xbb\xa1\xe4\xba\x86\xef\xbc\x8c",
      // A word in Cyrillic or Greek with a letter drawn like no Latin one is
      // that language, not a disguise.
      "\u043f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440",
      "\u03ba\u03b1\u03b9 \u03bb\u03bf\u03b3\u03bf\u03c2",
      "Stra\xc3\x9f" "e",
      // Chinese, with its full-width punctuation and a Latin word among it.
      "\u539f\u56e0\u662f cache \u6ee1\u4e86\uff08\u89c1\u65e5\u5fd7\uff09\uff1b\u300c\u7ed3\u8bba\u300d\u3001\u2026\u2026",
      // CJK wave dash and kana (its voicing marks included) stay.
      "\u7b2c1\u301c3\u6b65 \u304c\u304b\u3099 \u30ab\u30fc \ud55c\uad6d\uc5b4",
      // Invalid bytes pass through as they are.
      "ok \xff\xfe \xc3",
      "QUOTE caused QUOTE",
  };
  for (const std::string& text : kept) {
    INFO(text);
    CHECK(FoldForRules(text) == text);
  }
}

}  // namespace
}  // namespace causegate::evidence
