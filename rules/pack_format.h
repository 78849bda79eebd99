// The fields of the rule-pack format (rules/FORMAT.md), shared by the two
// readings of a pack: nlohmann's, which reports every problem where it is
// (rules/pack.cc), and simdjson's for the packs compiled in
// (rules/pack_trusted_read.h), which must accept no pack the other refuses.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <string_view>

namespace causegate::rules {

inline constexpr std::string_view kPackFormat = "causegate-pack/1";

inline constexpr std::array<const char*, 8> kRuleFields = {"id",   "kind", "pattern", "description",
                                                           "note", "tag",  "match",   "no_match"};
inline constexpr std::array<const char*, 6> kPackFields = {"format", "pack", "version",
                                                           "lang",   "description", "rules"};

template <std::size_t N>
bool IsFormatField(std::string_view key, const std::array<const char*, N>& fields) {
  return std::find_if(fields.begin(), fields.end(), [key](const char* f) { return key == f; }) != fields.end();
}

// A pack's "lang": "en", "zh", or "any" (the default).
inline bool IsPackLang(std::string_view lang) { return lang == "en" || lang == "zh" || lang == "any"; }

}  // namespace causegate::rules
