// The TOML item scanner: every kind of item with its byte range, values
// that span lines or hold brackets and quotes, and lines it refuses.
#include "install/toml_scan.h"

#include <catch2/catch.hpp>

namespace causegate::install {
namespace {

using Kind = TomlItem::Kind;
using Path = std::vector<std::string>;

std::vector<TomlItem> Scan(const std::string& text) {
  std::vector<TomlItem> items;
  const Status s = ScanToml(text, &items);
  INFO(s.message());
  REQUIRE(s.ok());
  return items;
}

TEST_CASE("toml scan: items cover the text, keys carry their table") {
  const std::string text =
      "# top\nmodel = \"o3\"  # note\n\n[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\n"
      "trusted_hash = 'sha256:ab'\n[[profiles]]\nname = \"x\"\n[ a . \"b.c\" ]\nd.e = 1";
  const std::vector<TomlItem> items = Scan(text);
  REQUIRE(items.size() == 9);
  std::size_t at = 0;
  for (const TomlItem& item : items) {
    CHECK(item.begin == at);
    at = item.end;
  }
  CHECK(at == text.size());
  CHECK(items[0].kind == Kind::kTrivia);
  CHECK(items[1].path == Path{"model"});
  CHECK(text.substr(items[1].value_begin, items[1].value_end - items[1].value_begin) == "\"o3\"");
  CHECK(items[2].kind == Kind::kTrivia);
  CHECK(items[3].kind == Kind::kTable);
  CHECK(items[3].path == Path{"hooks", "state", "/h/.codex/hooks.json:stop:0:0"});
  CHECK(items[4].path == Path{"hooks", "state", "/h/.codex/hooks.json:stop:0:0", "trusted_hash"});
  CHECK(items[4].key_parts == 1);
  CHECK(items[5].kind == Kind::kArrayTable);
  CHECK(items[6].path == Path{"profiles", "[]", "name"});
  CHECK(items[7].path == Path{"a", "b.c"});
  CHECK(items[8].path == Path{"a", "b.c", "d", "e"});
  CHECK(items[8].key_parts == 2);
  CHECK(items[8].line == 9);
}

TEST_CASE("toml scan: values spanning lines are one item; brackets in them are not headers") {
  const std::string text =
      "a = [\n  [1, 2],\n  \"[not.a.table]\", # c\n]\nb = \"\"\"\n[nor.this]\n\"\"\"\"\"\n"
      "c = '''x\n[x]'''\nd = { e = [1,\n 2], f = \"}\" }\ng = 1979-05-27 07:32:00Z\n[t]\n";
  const std::vector<TomlItem> items = Scan(text);
  REQUIRE(items.size() == 6);
  CHECK(items[0].path == Path{"a"});
  CHECK(items[1].path == Path{"b"});
  CHECK(items[2].path == Path{"c"});
  CHECK(items[3].path == Path{"d"});
  CHECK(items[4].path == Path{"g"});
  CHECK(items[5].kind == Kind::kTable);
  CHECK(items[5].path == Path{"t"});
}

TEST_CASE("toml scan: what it cannot delimit is an error with its line") {
  const struct {
    const char* text;
    const char* error;
  } cases[] = {
      {"a = \"open\n", "1: unterminated string"},
      {"x = 1\na = [1, 2\n", "unterminated array"},
      {"a = 1 b\n", "1: unexpected text after the item"},
      {"= 1\n", "expected a key"},
      {"[a\n", "expected ]"},
      {"a = \"\"\"never closed\n", "unterminated multi-line string"},
      {"\"a\\q\" = 1\n", "bad escape"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    std::vector<TomlItem> items;
    CHECK_THAT(ScanToml(c.text, &items).message(), Catch::Contains(c.error));
  }
}

TEST_CASE("toml scan: strings and keys") {
  std::string v;
  CHECK(TomlStringValue("\"a\\\"b\\\\c\\u00e9\\n\"", &v));
  CHECK(v == "a\"b\\c\xc3\xa9\n");
  CHECK(TomlStringValue("'C:\\path'", &v));
  CHECK(v == "C:\\path");
  CHECK_FALSE(TomlStringValue("12", &v));
  CHECK_FALSE(TomlStringValue("\"\"\"x\"\"\"", &v));
  CHECK(TomlKey("trusted_hash") == "trusted_hash");
  CHECK(TomlKey("/h/hooks.json:stop:0:0") == "\"/h/hooks.json:stop:0:0\"");
  CHECK(TomlKey("a\"b\\c\td") == "\"a\\\"b\\\\c\\u0009d\"");
  bool found = false;
  CHECK(TomlStringAt("[projects.\"/w\"]\ntrust_level = \"trusted\"\n", {"projects", "/w", "trust_level"}, &found, &v)
            .ok());
  CHECK(found);
  CHECK(v == "trusted");
}

}  // namespace
}  // namespace causegate::install
