#include "rules/html_entity.h"

#include <utf8proc.h>

namespace causegate::rules {

std::optional<std::string> DecodeEntity(std::string_view entity) {
  if (entity.size() < 3 || entity.front() != '&' || entity.back() != ';') return std::nullopt;
  const std::string_view name = entity.substr(1, entity.size() - 2);
  if (name == "amp") return "&";
  if (name == "lt") return "<";
  if (name == "gt") return ">";
  if (name == "quot") return "\"";
  if (name == "apos") return "'";
  if (name == "nbsp") return "\u00A0";
  if (name.size() < 2 || name.front() != '#') return std::nullopt;
  const bool hex = name[1] == 'x' || name[1] == 'X';
  const std::string_view digits = name.substr(hex ? 2 : 1);
  if (digits.empty() || digits.size() > 8) return std::nullopt;
  utf8proc_int32_t cp = 0;
  for (const char c : digits) {
    int value = -1;
    if (c >= '0' && c <= '9') value = c - '0';
    if (hex && c >= 'a' && c <= 'f') value = c - 'a' + 10;
    if (hex && c >= 'A' && c <= 'F') value = c - 'A' + 10;
    if (value < 0) return std::nullopt;
    cp = cp * (hex ? 16 : 10) + value;
  }
  // NUL, surrogates and values past Unicode render as the replacement.
  if (cp == 0 || !utf8proc_codepoint_valid(cp)) cp = 0xFFFD;
  utf8proc_uint8_t bytes[4];
  const utf8proc_ssize_t n = utf8proc_encode_char(cp, bytes);
  return std::string(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(n));
}

}  // namespace causegate::rules
