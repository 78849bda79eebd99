#include "gate/answer_json.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "gate/adapters.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

std::string Nlohmann(const std::string& text) { return json(text).dump(-1, ' ', false, json::error_handler_t::replace); }

std::string Ours(const std::string& text) {
  std::string out;
  AppendJsonString(text, &out);
  return out;
}

TEST_CASE("AppendJsonString writes what nlohmann writes, byte for byte", "[gate][json]") {
  for (int c = 0; c < 0x80; ++c) {
    const std::string one(1, static_cast<char>(c));
    INFO("byte " << c);
    CHECK(Ours(one) == Nlohmann(one));
  }
  // Pieces that need care, then random strings made of them.
  const std::vector<std::string> pieces = {"a", "block", " ", "\"", "\\", "\n", "\r\n", "\t", "\b", "\f", "\x01",
                                           "\x1f", "\x7f", "/", "é", "中文", "🙂", "`code`", "\u2028", "{}"};
  CHECK(Ours("") == Nlohmann(""));
  std::mt19937 random(18);
  for (int i = 0; i < 2000; ++i) {
    std::string text;
    const int n = static_cast<int>(random() % 40);
    for (int k = 0; k < n; ++k) text += pieces[random() % pieces.size()];
    INFO(text);
    CHECK(Ours(text) == Nlohmann(text));
  }
  std::string appended = "x";
  AppendJsonString("y\"", &appended);
  CHECK(appended == "x\"y\\\"\"");  // appends, quotes included
}

TEST_CASE("The agents' answers are the objects nlohmann dumps, invalid UTF-8 replaced as before", "[gate][json]") {
  const auto object = [](const json& j) { return adapters::Dump(j); };
  for (const std::string text : {std::string("causegate blocked this stop: \"the disk is full\"\n- 1. cite `df -h`"),
                                 std::string("中文 原因\t\x02"), std::string("bad \xff\xfe byte"), std::string("")}) {
    INFO(text);
    CHECK(adapters::DecisionAnswer("block", text) == object(json{{"decision", "block"}, {"reason", text}}));
    CHECK(adapters::DecisionAnswer("deny", text) == object(json{{"decision", "deny"}, {"reason", text}}));
    CHECK(adapters::SystemMessageAnswer(text) == object(json{{"systemMessage", text}}));
  }
}

}  // namespace
}  // namespace causegate::gate
