// The format-preserving editor: appends laid out as their neighbours, the
// rest of the text byte for byte, and removal giving the text before the
// append back; JSONC comments and trailing commas kept; errors with line
// and column.
#include "install/jsonc_edit.h"

#include <catch2/catch.hpp>

namespace causegate::install {
namespace {

JsonNode Value(const std::string& json) {
  JsoncDocument doc;
  REQUIRE(JsoncDocument::Parse(json, JsonSyntax::kStrict, &doc).ok());
  return doc.root();
}

JsoncDocument Doc(const std::string& text, JsonSyntax syntax) {
  JsoncDocument doc;
  const Status s = JsoncDocument::Parse(text, syntax, &doc);
  INFO(s.message());
  REQUIRE(s.ok());
  return doc;
}

// The container at path: object keys, "" for the document itself.
const JsonNode& At(const JsoncDocument& doc, const std::string& key) {
  if (key.empty()) return doc.root();
  const JsonNode* node = doc.root().Find(key);
  REQUIRE(node != nullptr);
  return *node;
}

TEST_CASE("jsonc edit: append laid out as the neighbours, removal gives the bytes back") {
  struct Case {
    const char* name;
    JsonSyntax syntax;
    std::string before;
    std::string container;  // a member of the document, "" for the document
    std::string key;        // for objects
    std::string value;
    std::string after;
  };
  const JsonSyntax kStrict = JsonSyntax::kStrict;
  const JsonSyntax kJsonc = JsonSyntax::kJsonc;
  const std::vector<Case> cases = {
      {"pretty object", kStrict, "{\n  \"a\": 1\n}\n", "", "b", "{\"c\":[1,2]}",
       "{\n  \"a\": 1,\n  \"b\": {\n    \"c\": [1, 2]\n  }\n}\n"},
      {"four spaces, nested", kStrict, "{\n    \"x\": {\n        \"y\": true\n    }\n}", "x", "z", "[{\"k\":null}]",
       "{\n    \"x\": {\n        \"y\": true,\n        \"z\": [\n            {\n                \"k\": null\n"
       "            }\n        ]\n    }\n}"},
      {"tabs", kStrict, "{\n\t\"a\": 1\n}\n", "", "b", "{\"c\":2}", "{\n\t\"a\": 1,\n\t\"b\": {\n\t\t\"c\": 2\n\t}\n}\n"},
      {"compact array stays on its line", kStrict, "{\n  \"allow\": [\"Read\", \"Bash(ls)\"]\n}\n", "allow", "",
       "\"Write\"", "{\n  \"allow\": [\"Read\", \"Bash(ls)\", \"Write\"]\n}\n"},
      {"compact object, no spaces", kStrict, "{\"a\":1}", "", "b", "{\"c\":2}", "{\"a\":1,\"b\":{\"c\":2}}"},
      {"empty document", kStrict, "{}\n", "", "b", "2", "{\n  \"b\": 2\n}\n"},
      {"empty member in a pretty file", kStrict, "{\n  \"hooks\": {}\n}\n", "hooks", "Stop", "[]",
       "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n"},
      {"CRLF", kStrict, "{\r\n  \"a\": 1\r\n}\r\n", "", "b", "2", "{\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}\r\n"},
      {"line comment after the last item", kJsonc, "{\n  \"a\": 1 // one\n}\n", "", "b", "2",
       "{\n  \"a\": 1, // one\n  \"b\": 2\n}\n"},
      {"block comment after the last item", kJsonc, "{\n  \"a\": 1 /* one */\n}\n", "", "b", "2",
       "{\n  \"a\": 1, /* one */\n  \"b\": 2\n}\n"},
      {"trailing comma kept", kJsonc, "{\n  \"a\": 1,\n}\n", "", "b", "2", "{\n  \"a\": 1,\n  \"b\": 2,\n}\n"},
      {"comments around", kJsonc, "// mine\n{\n  /* theme */ \"a\": 1\n  // end\n}\n", "", "b", "2",
       "// mine\n{\n  /* theme */ \"a\": 1,\n  \"b\": 2\n  // end\n}\n"},
      {"comment only inside", kJsonc, "{\n  // nothing yet\n}\n", "", "b", "2", "{\n  // nothing yet\n  \"b\": 2\n}\n"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const JsoncDocument doc = Doc(c.before, c.syntax);
    const std::string after = ApplyEdits(c.before, AppendItems(doc, At(doc, c.container), {{c.key, Value(c.value)}}));
    CHECK(after == c.after);
    const JsoncDocument added = Doc(after, c.syntax);
    const JsonNode& container = At(added, c.container);
    const std::string removed = ApplyEdits(after, RemoveItem(added, container, container.children.size() - 1));
    CHECK(removed == c.before);
  }
}

// Every container of each document: append, parse back, remove, and the
// bytes are the original again; and removing any existing item parses.
void Containers(const JsonNode& node, std::vector<std::vector<std::size_t>>* paths, std::vector<std::size_t> at) {
  if (node.is_array() || node.is_object()) paths->push_back(at);
  for (std::size_t k = 0; k < node.children.size(); ++k) {
    at.push_back(k);
    Containers(node.children[k], paths, at);
    at.pop_back();
  }
}

const JsonNode& Walk(const JsoncDocument& doc, const std::vector<std::size_t>& path) {
  const JsonNode* n = &doc.root();
  for (const std::size_t k : path) n = &n->children[k];
  return *n;
}

TEST_CASE("jsonc edit: append then remove in every container gives the bytes back") {
  const std::vector<std::pair<std::string, JsonSyntax>> docs = {
      {"{\n  \"a\": [1, 2],\n  \"b\": {\"c\": {}},\n  \"d\": [\n    {\"e\": []}\n  ]\n}\n", JsonSyntax::kStrict},
      {"{\"a\":[1,{\"b\":[]}],\"c\":{\"d\":null}}", JsonSyntax::kStrict},
      {"// top\n{\n  \"a\": [ // list\n    1,\n    2, // two\n  ],\n  /* b */ \"b\": {\n    \"c\": true, // on\n  },\n  "
       "\"e\": {} // empty\n}\n",
       JsonSyntax::kJsonc},
      {"{\r\n\t\"a\": [\r\n\t\t1\r\n\t],\r\n\t\"b\": {}\r\n}", JsonSyntax::kStrict},
  };
  for (const auto& [text, syntax] : docs) {
    INFO(text);
    const JsoncDocument doc = Doc(text, syntax);
    std::vector<std::vector<std::size_t>> paths;
    Containers(doc.root(), &paths, {});
    for (const std::vector<std::size_t>& path : paths) {
      INFO("container at depth " << path.size());
      const JsonNode& container = Walk(doc, path);
      const std::string added = ApplyEdits(text, AppendItems(doc, container, {{"new", Value("{\"x\":[1,2]}")}}));
      JsoncDocument after;
      const Status parsed = JsoncDocument::Parse(added, syntax, &after);
      INFO(added);
      REQUIRE(parsed.ok());
      const JsonNode& grown = Walk(after, path);
      REQUIRE(grown.children.size() == container.children.size() + 1);
      CHECK(ApplyEdits(added, RemoveItem(after, grown, grown.children.size() - 1)) == text);
      for (std::size_t k = 0; k < container.children.size(); ++k) {
        const std::string removed = ApplyEdits(text, RemoveItem(doc, container, k));
        JsoncDocument smaller;
        INFO(removed);
        REQUIRE(JsoncDocument::Parse(removed, syntax, &smaller).ok());
        CHECK(Walk(smaller, path).children.size() == container.children.size() - 1);
      }
    }
  }
}

TEST_CASE("jsonc edit: removal of the first or a middle item, compact and pretty") {
  const std::string pretty = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}";
  JsoncDocument doc = Doc(pretty, JsonSyntax::kStrict);
  CHECK(ApplyEdits(pretty, RemoveItem(doc, doc.root(), 0)) == "{\n  \"b\": 2,\n  \"c\": 3\n}");
  CHECK(ApplyEdits(pretty, RemoveItem(doc, doc.root(), 1)) == "{\n  \"a\": 1,\n  \"c\": 3\n}");
  const std::string compact = "[1, 2, 3]";
  doc = Doc(compact, JsonSyntax::kStrict);
  CHECK(ApplyEdits(compact, RemoveItem(doc, doc.root(), 0)) == "[2, 3]");
  CHECK(ApplyEdits(compact, RemoveItem(doc, doc.root(), 1)) == "[1, 3]");
  CHECK(ApplyEdits(compact, RemoveItem(doc, doc.root(), 2)) == "[1, 2]");
}

TEST_CASE("jsonc edit: a value replaced in place") {
  const std::string text = "{\n  \"command\": \"/old/causegate\",  \"args\": [\"hook\"] // why\n}\n";
  const JsoncDocument doc = Doc(text, JsonSyntax::kJsonc);
  std::vector<TextEdit> edits = ReplaceValue(doc, *doc.root().Find("command"), Value("\"causegate\""));
  for (TextEdit& e : ReplaceValue(doc, *doc.root().Find("args"), Value("[\"hook\",\"--server\",\"u\"]"))) {
    edits.push_back(e);
  }
  CHECK(ApplyEdits(text, edits) ==
        "{\n  \"command\": \"causegate\",  \"args\": [\"hook\", \"--server\", \"u\"] // why\n}\n");
}

TEST_CASE("jsonc edit: errors name line and column; strict files refuse JSONC") {
  const std::vector<std::tuple<std::string, JsonSyntax, std::string>> cases = {
      {"{\n  \"a\": 1,\n}", JsonSyntax::kStrict, "line 2, column 9: a trailing comma"},
      {"{\n  // c\n}", JsonSyntax::kStrict, "line 2, column 3: a comment"},
      {"{\n  \"a\": 1\n  \"b\": 2\n}", JsonSyntax::kStrict, "line 3, column 3: expected , or }"},
      {"{\"a\": 'x'}", JsonSyntax::kJsonc, "line 1, column 7: unexpected ' (JSON strings use double quotes)"},
      {"{\"é\": tru}", JsonSyntax::kStrict, "line 1, column 7: unexpected character"},
      {"{\"a\": 1} x", JsonSyntax::kStrict, "line 1, column 10: text after the JSON value"},
      {"{\n/* open", JsonSyntax::kJsonc, "line 2, column 1: a /* comment that is never closed"},
      {"{\"a\": \"\\q\"}", JsonSyntax::kStrict, "line 1, column 8: unknown escape \\q"},
      {std::string(200, '[') + std::string(200, ']'), JsonSyntax::kStrict, "nested too deep"},
  };
  for (const auto& [text, syntax, why] : cases) {
    INFO(text);
    JsoncDocument doc;
    CHECK_THAT(JsoncDocument::Parse(text, syntax, &doc).message(), Catch::Contains(why));
  }
  JsoncDocument doc;
  REQUIRE(JsoncDocument::Parse("{\"a\": \"\\u00e9\\ud83d\\ude00\", /* c */ \"b\": [1,],}", JsonSyntax::kJsonc, &doc).ok());
  CHECK(doc.root().Find("a")->value == "\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(doc.strict_text() == "{\"a\": \"\\u00e9\\ud83d\\ude00\",         \"b\": [1 ] }");
}

}  // namespace
}  // namespace causegate::install
