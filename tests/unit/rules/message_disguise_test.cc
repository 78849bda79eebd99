// A sentence's masked text, the one the packs match, is free of the
// disguises of spec section 3.4, while its text keeps what the agent wrote
// (the reason quotes it back). End to end: tests/e2e/adversarial_cases.py.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "rules/message.h"

namespace causegate::rules {
namespace {

TEST_CASE("masked sentences undo disguised claim words", "[message]") {
  struct Case {
    const char* name;
    std::string markdown;
    std::string masked;
  };
  const std::vector<Case> cases = {
      {"zero-width space", "It failed bec\xe2\x80\x8b" "ause the disk was full.", "It failed because the disk was full."},
      {"Cyrillic o in root", "The r\xd0\xbe\xd0\xbet cause is `ENOSPC`.", "The root cause is QUOTE."},
      {"full-width word beside code", "It was \xef\xbd\x83\xef\xbd\x81\xef\xbd\x95\xef\xbd\x93\xef\xbd\x85\xef\xbd\x84 by `x`.",
       "It was caused by QUOTE."},
      {"emphasis inside the word", "It failed **be**cause the disk was full.", "It failed because the disk was full."},
      // A connective alone in a code span is markup on the sentence; any
      // other code span stays quoted material.
      {"connective in a code span", "The export failed `because` the disk was full.",
       "The export failed because the disk was full."},
      {"code that holds more", "The export failed `because of ENOSPC`.", "The export failed QUOTE."},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Message m = ParseMessage(c.markdown);
    REQUIRE(m.sentences.size() == 1);
    CHECK(m.sentences[0].masked == c.masked);
  }
  const Message kept = ParseMessage("It failed bec\xe2\x80\x8b" "ause the disk was full.");
  REQUIRE(kept.sentences.size() == 1);
  CHECK(kept.sentences[0].text == "It failed bec\xe2\x80\x8b" "ause the disk was full.");
}

}  // namespace
}  // namespace causegate::rules
