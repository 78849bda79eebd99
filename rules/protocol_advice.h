// The targeted part of a block reason: what the turn did in the debug
// protocol, what it skipped, the symptom, and the next step for that
// symptom in the protocol's order (the seed's probes and smoke tests), in
// English or Chinese. rules/reason.h puts it together with the claims.
// Tests: tests/unit/rules/protocol_advice_test.cc.
#pragma once

#include <string>
#include <string_view>

#include "rules/protocol_steps.h"

namespace causegate::rules {

enum class Language { kEnglish, kChinese };

// Three or four lines: "Debug protocol so far: probes run: dmesg,
// nvidia-smi; no hypothesis stated; no smoke test yet; no control yet.",
// the symptoms when there are any, and "Next step: ...".
std::string ProtocolAdvice(const ProtocolSteps& steps, Language language);

// The report shape the seed asks for: the protocol text's "Report:" /
// "报告：" line (rules/protocol/*.md).
std::string ReportShape(Language language);

// A symptom tag as people read it ("out of memory", "内存不足（OOM）"); an
// unknown tag is shown as it is.
std::string SymptomTitle(std::string_view tag, Language language);

}  // namespace causegate::rules
