// The text an HTML entity stands for. md4c reports entities verbatim
// ("&amp;"), and a quote must match tool output as rendered text.
// Tests: tests/unit/rules/message_test.cc (entities in quotes).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace causegate::rules {

// "&amp;" -> "&", "&#x41;" -> "A"; nullopt for a named entity outside the
// few common ones (kept as written). Invalid code points become U+FFFD.
std::optional<std::string> DecodeEntity(std::string_view entity);

}  // namespace causegate::rules
