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
      // A word wholly in Cyrillic or Greek is that language, not a disguise.
      "\xd1\x81\xd0\xbe\xd1\x80\xd0\xbe \xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
      "\xce\xb1\xce\xbf",
      "Stra\xc3\x9f" "e na\xc3\xafve",
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
