#include "rules/html_entity.h"

#include <catch2/catch.hpp>

namespace causegate::rules {
namespace {

TEST_CASE("DecodeEntity renders named and numeric entities, keeps unknown names") {
  CHECK(DecodeEntity("&amp;") == std::optional<std::string>("&"));
  CHECK(DecodeEntity("&#65;") == std::optional<std::string>("A"));
  CHECK(DecodeEntity("&#x6839;") == std::optional<std::string>("根"));
  CHECK(DecodeEntity("&#xD800;") == std::optional<std::string>("\uFFFD"));  // a surrogate
  CHECK(DecodeEntity("&#0;") == std::optional<std::string>("\uFFFD"));
  CHECK_FALSE(DecodeEntity("&hellip;").has_value());
  CHECK_FALSE(DecodeEntity("&#xZZ;").has_value());
}

}  // namespace
}  // namespace causegate::rules
