// Reading fields of agent transcript lines parsed with nlohmann::json: a
// field that is missing or of another type reads as absent, never throws.
// Shared by the Claude Code, Copilot and Gemini readers.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace causegate::evidence {

// The value of key in obj, or nullptr when obj is no object or lacks it.
inline const nlohmann::json* FindField(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// The string at key, or "" when it is missing or not a string.
inline std::string StringField(const nlohmann::json& obj, const char* key) {
  const nlohmann::json* v = FindField(obj, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

// Compact JSON text; ill-formed UTF-8 in strings becomes U+FFFD.
inline std::string DumpJson(const nlohmann::json& v) {
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace causegate::evidence
