// IsValidUtf8, ScrubUtf8 and Utf8Prefix (evidence/utf8.h), table-driven.
#include "evidence/utf8.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

namespace causegate::evidence {
namespace {

TEST_CASE("IsValidUtf8 and ScrubUtf8", "[utf8]") {
  const std::string fffd = "\xef\xbf\xbd";
  struct Case {
    const char* name;
    std::string in;
    bool valid;
    std::string scrubbed;
  };
  const std::vector<Case> cases = {
      {"empty", "", true, ""},
      {"ascii", "out of memory", true, "out of memory"},
      {"two, three, four bytes", "\xc3\xa9\xe6\x98\xbe\xf0\x9f\x98\x80", true,
       "\xc3\xa9\xe6\x98\xbe\xf0\x9f\x98\x80"},
      {"lone continuation", "a\x80" "b", false, "a" + fffd + "b"},
      {"cut sequence", "\xe6\x98", false, fffd + fffd},
      {"overlong slash", "\xc0\xaf", false, fffd + fffd},
      {"overlong three-byte", "\xe0\x80\xaf", false, fffd + fffd + fffd},
      {"encoded surrogate", "\xed\xa0\x80", false, fffd + fffd + fffd},
      {"above U+10FFFF", "\xf4\x90\x80\x80", false, fffd + fffd + fffd + fffd},
      {"invalid lead", "\xff", false, fffd},
      {"NUL is valid UTF-8 but dropped", std::string("a\0b", 3), true, "ab"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(IsValidUtf8(c.in) == c.valid);
    CHECK(ScrubUtf8(c.in) == c.scrubbed);
    CHECK(IsValidUtf8(ScrubUtf8(c.in)));
  }
}

TEST_CASE("Utf8Prefix never splits a character", "[utf8]") {
  const std::string text = "a\xc3\xa9\xe6\x98\xbe\xf0\xa0\x80\x80z";  // a é 显 U+20000 z
  const std::vector<std::pair<std::size_t, std::size_t>> cases = {
      {0, 0}, {1, 1}, {2, 1}, {3, 3}, {4, 3}, {5, 3}, {6, 6}, {7, 6}, {8, 6}, {9, 6}, {10, 10},
      {11, 11}, {100, 11}};
  for (const auto& [max, want] : cases) {
    INFO("max=" << max);
    CHECK(Utf8Prefix(text, max).size() == want);
  }
}

}  // namespace
}  // namespace causegate::evidence
