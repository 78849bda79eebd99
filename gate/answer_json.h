// JSON string text written directly, for the agents' answers (gate/
// adapters.h: DecisionAnswer, SystemMessageAnswer). Building an nlohmann
// object to dump one or two strings cost about 60 K instructions for a
// block's 1.3 KB reason, a fifth of a /hook verdict's JSON work
// (bench/RESULTS.md, finding 11); this writes the same bytes at memcpy
// speed for the runs that need no escape.
// Tests: tests/unit/gate/answer_json_test.cc (against nlohmann, byte for byte).
#pragma once

#include <string>
#include <string_view>

namespace causegate::gate {

// Appends text as a JSON string, quotes included, exactly as nlohmann's
// dump(-1, ' ', /*ensure_ascii=*/false, ...) writes it: ", \ and the
// control characters escaped (\b \f \n \r \t, the others \u00xx in lower
// case), everything else, DEL and UTF-8 included, as it is.
// REQUIRES: text is valid UTF-8 (evidence::IsValidUtf8); nlohmann replaces
// invalid sequences, which this does not.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace causegate::gate
