// Bounds checked before any JSON from outside is parsed: nlohmann::json
// recurses and has no depth limit of its own, so a cheap byte scan refuses
// deeply nested input first (limits::kMaxJsonDepth).
#pragma once

#include <string_view>

namespace causegate::evidence {

// True when no JSON array/object nesting in text (strings skipped) goes
// deeper than max_depth.
bool JsonDepthWithin(std::string_view text, int max_depth);

}  // namespace causegate::evidence
