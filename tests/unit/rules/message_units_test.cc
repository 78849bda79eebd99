#include <string_view>

#include <catch2/catch.hpp>

#include "rules/message.h"

namespace causegate::rules {
namespace {

TEST_CASE("Message: units know their kind and the heading whose section holds them") {
  const Message m = ParseMessage(
      "Intro line.\n\n## Root cause\n\nFirst paragraph.\n\n- item one\n- item two\n\n| a | b |\n|---|---|\n| c | d |\n");
  REQUIRE(m.sentences.size() >= 5);
  auto unit_of = [&](std::string_view text) -> const Unit& {
    for (const Sentence& s : m.sentences) {
      if (s.text == text) return m.units[static_cast<std::size_t>(s.unit)];
    }
    FAIL("no sentence " << text);
    return m.units.front();
  };
  CHECK(unit_of("Intro line.").kind == UnitKind::kParagraph);
  CHECK(unit_of("Intro line.").heading == -1);
  const Unit& heading = unit_of("Root cause");
  CHECK(heading.kind == UnitKind::kHeading);
  const Unit& first = unit_of("First paragraph.");
  CHECK(first.kind == UnitKind::kParagraph);
  CHECK(first.index_in_section == 0);
  CHECK(first.heading >= 0);
  CHECK(m.units[static_cast<std::size_t>(first.heading)].kind == UnitKind::kHeading);
  CHECK(unit_of("item one").kind == UnitKind::kListItem);
  CHECK(unit_of("item one").index_in_section > 0);
  CHECK(unit_of("c").kind == UnitKind::kTableCell);
  CHECK(std::string(UnitKindName(UnitKind::kListItem)) == "list-item");
}

}  // namespace
}  // namespace causegate::rules
