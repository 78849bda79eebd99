// The guess-fix finding: a turn that edits code or config to fix a cause it
// only hedged, with nothing probed before the edit. The seed's first thing
// to avoid: "it might be X, let me try Y". Reported beside the claims'
// findings; what the gate does with it is the loop policy's call
// (rules/loop_policy.h: warn by default, block, or off).
// Tests: tests/unit/rules/protocol_guess_fix_test.cc.
#pragma once

#include <string>
#include <vector>

#include "evidence/turn.h"
#include "rules/claims.h"
#include "rules/message.h"
#include "rules/protocol_steps.h"
#include "rules/rule_set.h"

namespace causegate::rules {

struct GuessFix {
  bool found = false;
  std::string edit_call;   // id of the first edit of the turn
  std::string edit_label;  // "Edit loop.py", "sed"
  int edit_rule = -1;      // the step rule that made it an edit
  std::string hedge;       // the hedged sentence or "let me try" line
  int hedge_rule = -1;     // the hedge or guess rule that matched it
  bool chinese = false;    // language of that sentence
};

// All must hold: the turn is a diagnosis (diagnosis_rule >= 0, or a symptom
// in the prompt); the judged turn edits code or config (a kEdit call); no
// probe of the run's state, smoke test or control came before that edit,
// nor after it (reading code or config is not probing the failure; calls
// of earlier turns of the same diagnosis count); and a sentence of the
// narration or the final message hedges (a hedge rule, not a question) or
// announces a trial fix (a "guess" step rule).
GuessFix FindGuessFix(const RuleSet& rules, const evidence::Turn& turn, const ProtocolSteps& steps,
                      const Message& final_message, const std::vector<SentenceClass>& final_classes,
                      int diagnosis_rule);

}  // namespace causegate::rules
