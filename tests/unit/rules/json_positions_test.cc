#include "rules/json_positions.h"

#include <catch2/catch.hpp>

#include <string>

namespace causegate::rules {
namespace {

TEST_CASE("JsonPositions finds keys and items by JSON Pointer, columns in characters") {
  const std::string text =
      "{\n"
      "  \"pack\": \"team\",\n"
      "  \"rules\": [\n"
      "    {\"id\": \"a\", \"note\": \"é \\\"quoted\\\" }\", \"pattern\": \"x\"},\n"
      "    {\"id\": \"b\", \"match\": [\"one\", \"二\", \"three\"]}\n"
      "  ],\n"
      "  \"a/b~c\": 1\n"
      "}\n";
  JsonPositions positions(text);
  struct Case {
    const char* pointer;
    int line;
    int column;
  };
  const Case cases[] = {
      {"", 1, 1},
      {"/pack", 2, 3},
      {"/rules", 3, 3},
      {"/rules/0", 4, 5},
      {"/rules/0/id", 4, 6},
      {"/rules/0/note", 4, 17},
      // After a string that holds escaped quotes, a brace and a two-byte
      // letter, which is one column.
      {"/rules/0/pattern", 4, 43},
      {"/rules/1/match", 5, 17},
      {"/rules/1/match/1", 5, 34},  // 二 is three bytes, one column
      {"/rules/1/match/2", 5, 39},
      {"/a~1b~0c", 7, 3},
  };
  for (const Case& c : cases) {
    INFO(c.pointer);
    const TextPosition at = positions.Find(c.pointer);
    CHECK(at.line == c.line);
    CHECK(at.column == c.column);
  }
  CHECK(positions.Find("/rules/2").line == 0);
  CHECK(positions.Find("/missing").line == 0);
  CHECK(positions.duplicate_keys().empty());
}

TEST_CASE("JsonPositions reports a key written twice in one object, not across objects") {
  JsonPositions positions(
      "{\"rules\": [{\"id\": \"a\", \"pattern\": \"x\",\n \"pattern\": \"y\"}, {\"id\": \"b\"}], \"rules2\": {}}");
  REQUIRE(positions.duplicate_keys().size() == 1);
  CHECK(positions.duplicate_keys()[0].pointer == "/rules/0/pattern");
  CHECK(positions.duplicate_keys()[0].position.line == 2);
  CHECK(positions.duplicate_keys()[0].position.column == 2);
}

TEST_CASE("JsonPositions stops at text that is not JSON without reading past its end") {
  for (const char* text : {"", "{", "{\"a\"", "{\"a\":", "[1,", "\"open", "{\"a\": [}", "]]]", "{\"a\\"}) {
    INFO(text);
    JsonPositions positions(text);
    CHECK(positions.Find("/a/0").line == 0);
  }
}

TEST_CASE("PositionOf counts lines and characters") {
  CHECK(PositionOf("ab\ncé d", 0).line == 1);
  CHECK(PositionOf("ab\ncé d", 3).column == 1);
  const TextPosition after_accent = PositionOf("ab\ncé d", 7);  // the 'd'
  CHECK(after_accent.line == 2);
  CHECK(after_accent.column == 4);
  CHECK(PositionOf("ab", 99).column == 3);
}

TEST_CASE("PositionCounter gives each of increasing offsets what PositionOf gives") {
  const std::string text = "{\"a\": \"é\",\n \"b\": [1,\n\n  2]}";
  PositionCounter counter(text);
  for (std::size_t offset = 0; offset <= text.size() + 2; ++offset) {
    INFO(offset);
    const TextPosition at = counter.At(offset);
    CHECK(at.line == PositionOf(text, offset).line);
    CHECK(at.column == PositionOf(text, offset).column);
  }
}

// A pack as json.dump writes it: every rule on one line. Locating each
// rule's fields from the start of that line made loading 10,000 rules
// take seconds.
TEST_CASE("JsonPositions finds the fields of the last of 10,000 items on one line") {
  std::string text = "{\"rules\": [";
  for (int i = 0; i < 10000; ++i) {
    text += std::string(i == 0 ? "" : ", ") + "{\"id\": \"r" + std::to_string(i) + "\", \"pattern\": \"x\"}";
  }
  text += "]}";
  const JsonPositions positions(text);
  const TextPosition last = positions.Find("/rules/9999/pattern");
  CHECK(last.line == 1);
  CHECK(static_cast<std::size_t>(last.column) == text.rfind("\"pattern\"") + 1);
  CHECK(positions.Find("/rules/10000").line == 0);
  CHECK(positions.Find("/rules/09999").line == 0);  // not how a pointer writes 9999
  CHECK(positions.duplicate_keys().empty());
}

// Each level once, not a pointer string per level: 100,000 levels of
// those would be 10 GB.
TEST_CASE("JsonPositions reads a text nested 100,000 deep, keeping the first levels") {
  const std::string text = "{\"rules\": [" + std::string(100000, '[') + std::string(100000, ']') + "], \"b\": 1}";
  const JsonPositions positions(text);
  CHECK(positions.Find("/rules/0").column == 12);
  CHECK(positions.Find("/rules/0/0/0").column == 14);
  CHECK(positions.Find("/rules/0/0/0/0").line == 0);  // past the levels kept
  CHECK(positions.Find("/b").column == 200015);
}

TEST_CASE("JsonPositions finds a key written twice by its first, and names keys with / and ~") {
  const JsonPositions positions(
      "{\"z\": 1, \"a/b\": {\"x\": 1, \"x\": 2, \"x\": 3}, \"m~\": [0, {\"q\": 1, \"q\": 2}], \"z\": 2}");
  CHECK(positions.Find("/z").column == 2);
  CHECK(positions.Find("/a~1b/x").column == 18);
  CHECK(positions.Find("/m~0/1/q").column == 54);
  REQUIRE(positions.duplicate_keys().size() == 4);
  CHECK(positions.duplicate_keys()[0].pointer == "/a~1b/x");
  CHECK(positions.duplicate_keys()[0].position.column == 26);
  CHECK(positions.duplicate_keys()[1].pointer == "/a~1b/x");
  CHECK(positions.duplicate_keys()[2].pointer == "/m~0/1/q");
  CHECK(positions.duplicate_keys()[3].pointer == "/z");
}

}  // namespace
}  // namespace causegate::rules
