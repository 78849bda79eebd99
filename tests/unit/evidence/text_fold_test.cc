// FoldForMatch, CountCodePoints, CountHan and LooksChinese, table-driven.
#include "evidence/text_fold.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace causegate::evidence {
namespace {

TEST_CASE("FoldForMatch folds case, width and white space", "[text_fold]") {
  struct Case {
    const char* name;
    std::string in;
    std::string out;
  };
  const std::vector<Case> cases = {
      {"empty", "", ""},
      {"ascii case", "Out Of MEMORY", "out of memory"},
      {"ascii untouched", "exit status 137: oom-kill", "exit status 137: oom-kill"},
      {"full-width letters", "\xef\xbc\xaf\xef\xbc\xaf\xef\xbc\xad", "oom"},  // ＯＯＭ
      {"full-width digits and colon", "\xef\xbc\x91\xef\xbc\x93\xef\xbc\x97\xef\xbc\x9a",
       "137:"},  // １３７：
      {"non-ASCII case", "\xc3\x84\xc3\x96\xc3\x9c", "\xc3\xa4\xc3\xb6\xc3\xbc"},  // ÄÖÜ
      {"sharp s folds to ss", "Stra\xc3\x9f" "e", "strasse"},
      {"greek final sigma", "\xce\xa3", "\xcf\x83"},  // Σ -> σ
      {"white space collapsed and trimmed", "  a \t\n\r b  \n", "a b"},
      {"ideographic space U+3000", "\xe6\x98\xbe\xe5\xad\x98\xe3\x80\x80\xe3\x80\x80\xe4\xb8\x8d",
       "\xe6\x98\xbe\xe5\xad\x98 \xe4\xb8\x8d"},
      {"full-width text with U+3000",
       "\xef\xbc\xab\xef\xbd\x89\xef\xbd\x8c\xef\xbd\x8c\xe3\x80\x80\xef\xbd\x90",
       "kill p"},  // Ｋｉｌｌ　ｐ
      {"no-break space", "a\xc2\xa0" "b", "a b"},
      {"leading U+3000 trimmed", "\xe3\x80\x80x", "x"},
      {"zero-width space removed", "oo\xe2\x80\x8bm", "oom"},
      {"zero-width joiner removed", "o\xe2\x80\x8dom", "oom"},
      {"byte order mark removed", "\xef\xbb\xbfkilled", "killed"},
      {"only ignorables", "\xe2\x80\x8b\xe2\x80\x8b", ""},
      {"NUL dropped", std::string("a\0b", 3), "ab"},
      {"Han unchanged", "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3",
       "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3"},
      {"full-width punctuation around Han",
       "\xe3\x80\x8c\xe6\x98\xbe\xe5\xad\x98\xe3\x80\x8d",  // 「显存」 stays
       "\xe3\x80\x8c\xe6\x98\xbe\xe5\xad\x98\xe3\x80\x8d"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(FoldForMatch(c.in) == c.out);
  }
}

TEST_CASE("FoldForMatch keeps going on invalid UTF-8", "[text_fold]") {
  const std::string replacement = "\xef\xbf\xbd";
  struct Case {
    const char* name;
    std::string in;
    std::string out;
  };
  const std::vector<Case> cases = {
      {"lone continuation byte", "a\x80" "b", "a" + replacement + "b"},
      {"truncated sequence at end", "abc \xe6\x98", "abc " + replacement + replacement},
      {"invalid lead bytes", "\xff\xfe ok", replacement + replacement + " ok"},
      {"overlong encoding", "\xc0\xaf", replacement + replacement},
      {"surrogate half", "\xed\xa0\x80", replacement + replacement + replacement},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    std::string folded;
    REQUIRE_NOTHROW(folded = FoldForMatch(c.in));
    CHECK(folded == c.out);
  }
  // Every byte value, alone and in runs: no throw, no crash.
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  CHECK_NOTHROW(FoldForMatch(all));
  CHECK_NOTHROW(FoldForMatch(all + all + all));
}

TEST_CASE("folding a quote and its source agree", "[text_fold]") {
  // What the evidence index relies on: the fold of a fragment is found in
  // the fold of the text it was copied from, whatever white space or width.
  const std::string source = "[14:23:01] Out of memory: Killed process 48121 (python)\n";
  const std::vector<std::string> quotes = {
      "Out of memory: Killed process 48121 (python)",
      "out  of memory:\nkilled process 48121",
      "\xef\xbc\xaf\xef\xbd\x95\xef\xbd\x94 of memory",  // Ｏｕｔ of memory
      "Killed\xe3\x80\x80process",
  };
  const std::string folded = FoldForMatch(source);
  for (const std::string& q : quotes) {
    INFO(q);
    CHECK(folded.find(FoldForMatch(q)) != std::string::npos);
  }
}

TEST_CASE("CountCodePoints, CountHan and LooksChinese", "[text_fold]") {
  struct Case {
    const char* name;
    std::string text;
    std::size_t code_points;
    std::size_t han;
    bool chinese;
  };
  const std::vector<Case> cases = {
      {"empty", "", 0, 0, false},
      {"english", "The job died", 12, 0, false},
      {"chinese claim", "\xe6\x98\xbe\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3\xe5\xaf\xbc\xe8\x87\xb4"
                        "\xe5\xb4\xa9\xe6\xba\x83",  // 显存不足导致崩溃
       8, 8, true},
      {"mixed, mostly Han", "\xe6\xa0\xb9\xe5\x9b\xa0\xe6\x98\xaf OOM kill", 12, 3, true},
      {"mixed, mostly English", "CUDA out of memory \xe6\x98\xbe\xe5\xad\x98", 21, 2, false},
      {"kana and hangul are not Han", "\xe3\x81\x82\xed\x95\x9c", 2, 0, false},
      {"extension B", "\xf0\xa0\x80\x80", 1, 1, true},
      {"compatibility ideograph", "\xef\xa4\x80", 1, 1, true},
      {"invalid bytes count as one each", "a\xff\xfe" "b", 4, 0, false},
      {"full-width punctuation is not Han", "\xe3\x80\x8c\xe3\x80\x8d", 2, 0, false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(CountCodePoints(c.text) == c.code_points);
    CHECK(CountHan(c.text) == c.han);
    CHECK(LooksChinese(c.text) == c.chinese);
  }
}

}  // namespace
}  // namespace causegate::evidence
