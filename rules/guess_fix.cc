// Finding a guessed fix: a hedge, an edit, and no look at the failure. A
// probe, smoke test or control before the edit means the agent looked
// before it changed something. One after the edit clears the finding too:
// the agent looked, late, and that is the way out for an agent sent back
// for a guess-fix (its edit stays first in the turn whatever it does next).
// Narration is read only when there is such an edit, so ordinary turns pay
// nothing for this.
// Tests: tests/unit/rules/protocol_guess_fix_test.cc.
#include "rules/guess_fix.h"

#include "evidence/limits.h"
#include "evidence/text_fold.h"

namespace causegate::rules {
namespace {

bool LooksAtTheFailure(const StepCall& call) {
  switch (call.step) {
    case CallStep::kProbe: return call.probe_kind != "code" && call.probe_kind != "config";
    case CallStep::kSmoke:
    case CallStep::kControl: return true;
    case CallStep::kOther:
    case CallStep::kEdit: return false;
  }
  return false;
}

// The hedge or guess rule for one masked sentence, or -1.
int HedgeRule(const RuleSet& rules, const std::string& masked, const SentenceClass& c) {
  const bool question = c.exemption_rule >= 0 && rules.rule(c.exemption_rule).kind == RuleKind::kQuestion;
  if (question) return -1;
  if (c.hedged()) return c.hedge_rule;
  return FirstTaggedRule(rules, masked, kTagGuess);
}

}  // namespace

GuessFix FindGuessFix(const RuleSet& rules, const evidence::Turn& turn, const ProtocolSteps& steps,
                      const Message& final_message, const std::vector<SentenceClass>& final_classes,
                      int diagnosis_rule) {
  GuessFix out;
  bool diagnosis = diagnosis_rule >= 0;
  for (const Symptom& s : steps.symptoms) diagnosis = diagnosis || s.source == SymptomSource::kPrompt;
  if (!diagnosis) return out;

  const StepCall* edit = nullptr;
  for (const StepCall& call : steps.calls) {
    if (LooksAtTheFailure(call)) return out;  // looked, before or after the edit
    if (edit == nullptr && call.step == CallStep::kEdit && call.turns_back == 0) edit = &call;
  }
  if (edit == nullptr) return out;

  auto found = [&](const std::string& sentence, int rule) {
    out.found = true;
    out.edit_call = edit->id;
    out.edit_label = edit->label;
    out.edit_rule = edit->rule;
    out.hedge = sentence;
    out.hedge_rule = rule;
    out.chinese = evidence::LooksChinese(sentence);
    return out;
  };
  std::size_t budget = limits::kMaxMessageBytes;
  for (const std::string& text : turn.narration) {
    if (budget == 0) break;
    const std::string_view bounded = std::string_view(text).substr(0, budget);
    budget -= bounded.size();
    for (const Sentence& s : ParseMessage(bounded).sentences) {
      const int rule = HedgeRule(rules, s.masked, ClassifySentence(rules, s.masked));
      if (rule >= 0) return found(s.text, rule);
    }
  }
  for (std::size_t i = 0; i < final_message.sentences.size() && i < final_classes.size(); ++i) {
    const Sentence& s = final_message.sentences[i];
    const int rule = HedgeRule(rules, s.masked, final_classes[i]);
    if (rule >= 0) return found(s.text, rule);
  }
  return out;
}

}  // namespace causegate::rules
