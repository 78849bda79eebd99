// Tracking the debug protocol. One RE2::Set pass classifies a call: the
// step rules all match "Tool: command" and the tag of the first matching
// rule of each step decides, with edits before smoke tests, smoke tests
// before controls and controls before probes (a re-run at batch size 1 is a
// smoke test even if it also tails the log). A control is then found in
// code: a non-probe re-run of an earlier failing call, same tool, with one
// variable changed. Symptoms are read newest call first within a byte
// budget, because the newest output is what the final message speaks of.
// Tests: tests/unit/rules/protocol_steps_test.cc.
#include "rules/protocol_steps.h"

#include <algorithm>

#include "evidence/limits.h"
#include "rules/claims.h"
#include "rules/command_words.h"
#include "rules/message.h"

namespace causegate::rules {
namespace {

// A command is matched (and kept for people) up to this many bytes.
constexpr std::size_t kMaxMatchedCommandBytes = 8192;
constexpr std::size_t kMaxShownCommandBytes = 300;
// Earlier failing runs a call is compared with, newest first.
constexpr int kMaxControlBaselines = 32;

std::string ShortCommand(std::string_view command) {
  if (command.size() <= kMaxShownCommandBytes) return std::string(command);
  std::size_t cut = kMaxShownCommandBytes;
  while (cut > 0 && (static_cast<unsigned char>(command[cut]) & 0xC0) == 0x80) --cut;
  return std::string(command.substr(0, cut)) + "…";
}

bool ReadsSourceOrConfig(const StepCall& call) {
  return call.step == CallStep::kEdit ||
         (call.step == CallStep::kProbe && (call.probe_kind == "code" || call.probe_kind == "config"));
}

// Marks controls: a non-probe re-run of an earlier failing call with one
// variable changed. A smoke test that introduces the small conditions
// against a plain failing run stays a smoke test: that is what it is for.
void FindControls(const std::vector<const evidence::ToolCall*>& raw, std::vector<StepCall>* calls) {
  for (std::size_t j = 1; j < calls->size(); ++j) {
    StepCall& candidate = (*calls)[j];
    if (candidate.step == CallStep::kProbe || candidate.step == CallStep::kEdit) continue;
    if (!IsShellTool(raw[j]->name)) continue;
    int compared = 0;
    for (std::size_t i = j; i-- > 0 && compared < kMaxControlBaselines;) {
      const StepCall& base = (*calls)[i];
      if (base.step == CallStep::kProbe || base.step == CallStep::kEdit || !base.failed) continue;
      if (raw[i]->name != raw[j]->name) continue;
      ++compared;
      std::string changed;
      if (!OneVariableChange(raw[i]->command, raw[j]->command, &changed)) continue;
      if (candidate.step == CallStep::kSmoke && base.step != CallStep::kSmoke) break;
      if (candidate.step != CallStep::kControl) candidate.rule = -1;
      candidate.step = CallStep::kControl;
      candidate.baseline = static_cast<int>(i);
      candidate.changed = std::move(changed);
      break;
    }
  }
}

// Hypotheses stated in the narration between tool calls.
void ReadNarration(const RuleSet& rules, const std::vector<std::string>& narration, ProtocolSteps* steps) {
  std::size_t budget = limits::kMaxMessageBytes;
  for (const std::string& text : narration) {
    if (steps->step(ProtocolStep::kHypothesis).seen || budget == 0) return;
    const std::string_view bounded = std::string_view(text).substr(0, budget);
    budget -= bounded.size();
    for (const Sentence& s : ParseMessage(bounded).sentences) {
      int rule = FirstTaggedRule(rules, s.masked, kTagHypothesis);
      if (rule < 0) {
        const SentenceClass c = ClassifySentence(rules, s.masked);
        if (c.hedged() && c.exemption_rule < 0 && (c.causal() || c.names_failure())) rule = c.hedge_rule;
      }
      if (rule >= 0) {
        NoteHypothesis(s.text, rule, steps);
        return;
      }
    }
  }
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

}  // namespace

const char* CallStepName(CallStep step) {
  switch (step) {
    case CallStep::kOther: return "other";
    case CallStep::kProbe: return "probe";
    case CallStep::kSmoke: return "smoke";
    case CallStep::kControl: return "control";
    case CallStep::kEdit: return "edit";
  }
  return "unknown";
}

const char* ProtocolStepName(ProtocolStep step) {
  switch (step) {
    case ProtocolStep::kProbe: return "probe";
    case ProtocolStep::kHypothesis: return "hypothesis";
    case ProtocolStep::kSmoke: return "smoke";
    case ProtocolStep::kControl: return "control";
    case ProtocolStep::kAssert: return "assert";
  }
  return "unknown";
}

const char* NextStepName(NextStep step) {
  switch (step) {
    case NextStep::kProbe: return "probe";
    case NextStep::kHypothesisSmoke: return "hypothesis+smoke";
    case NextStep::kSmoke: return "smoke";
    case NextStep::kControl: return "control";
    case NextStep::kCite: return "cite";
  }
  return "unknown";
}

std::vector<std::string_view> KeyProbeKinds(std::string_view symptom) {
  if (symptom == "oom") return {"system-log", "gpu", "process"};
  if (symptom == "nan") return {"app-log", "config", "artefact"};
  if (symptom == "hang") return {"process", "gpu", "app-log", "system-log"};
  if (symptom == "slowdown") return {"gpu", "app-log", "process", "service"};
  if (symptom == "crash") return {"app-log", "system-log", "process"};
  if (symptom == "gpu-idle") return {"gpu", "process", "app-log"};
  if (symptom == "data") return {"app-log", "process", "artefact", "disk"};
  if (symptom == "distributed") return {"app-log", "system-log", "gpu", "process"};
  if (symptom == "disk-full") return {"disk", "artefact", "system-log"};
  return {"process", "system-log", "app-log", "service"};
}

std::vector<std::string_view> ProtocolSteps::UnprobedKeyKinds() const {
  const Symptom* s = PrimarySymptom(symptoms);
  if (s == nullptr) return {};
  const std::vector<std::string> run = ProbeKinds();
  const std::vector<std::string_view> key = KeyProbeKinds(s->name);
  const bool any = std::any_of(key.begin(), key.end(), [&](std::string_view k) {
    return std::find(run.begin(), run.end(), k) != run.end();
  });
  return any ? std::vector<std::string_view>() : key;
}

std::vector<std::string> ProtocolSteps::ProbeKinds() const {
  std::vector<std::string> kinds;
  for (const StepCall& c : calls) {
    if (c.step == CallStep::kProbe && std::find(kinds.begin(), kinds.end(), c.probe_kind) == kinds.end()) {
      kinds.push_back(c.probe_kind);
    }
  }
  return kinds;
}

NextStep ProtocolSteps::next() const {
  const bool probed = step(ProtocolStep::kProbe).seen;
  const bool tested = step(ProtocolStep::kSmoke).seen || step(ProtocolStep::kControl).seen;
  if (!probed && !tested) return NextStep::kProbe;
  if (!tested) {
    const std::vector<std::string> run = ProbeKinds();
    const bool state = std::any_of(run.begin(), run.end(), [](const std::string& k) { return k != "code" && k != "config"; });
    if (!state) return NextStep::kProbe;  // read the code, not the failure
    return step(ProtocolStep::kHypothesis).seen ? NextStep::kSmoke : NextStep::kHypothesisSmoke;
  }
  if (!step(ProtocolStep::kControl).seen) return NextStep::kControl;
  return NextStep::kCite;
}

int FirstTaggedRule(const RuleSet& rules, std::string_view text, std::string_view tag) {
  const Hits hits = rules.Match(Target::kCommand, text);
  if (!hits.Has(RuleKind::kStep)) return -1;
  for (const int i : hits.rules) {
    const Rule& r = rules.rule(i);
    if (r.kind == RuleKind::kStep && r.tag == tag) return i;
  }
  return -1;
}

int FollowUpRule(const RuleSet& rules, std::string_view prompt) {
  return FirstTaggedRule(rules, prompt.substr(0, limits::kMaxMessageBytes), kTagFollowUp);
}

std::vector<evidence::PastTurn> LoadDiagnosisTurns(const RuleSet& rules, std::string_view prompt,
                                                   evidence::History* history) {
  std::vector<evidence::PastTurn> turns;
  if (history == nullptr || FollowUpRule(rules, prompt) < 0) return turns;
  while (static_cast<int>(turns.size()) < limits::kMaxStepTurnsBack) {
    evidence::PastTurn past;
    if (!history->LoadOlder(&past)) break;
    turns.push_back(std::move(past));
    if (FollowUpRule(rules, turns.back().prompt) < 0) break;  // the diagnosis started here
  }
  return turns;
}

StepCall ClassifyCall(const RuleSet& rules, const evidence::ToolCall& call) {
  StepCall out;
  out.id = call.id;
  out.tool = call.name;
  out.command = ShortCommand(call.command);
  out.label = CallLabel(call.name, call.command);
  out.turns_back = call.turns_back;
  const std::string_view command = std::string_view(call.command).substr(0, kMaxMatchedCommandBytes);
  const std::string text = call.name + ": " + (IsShellTool(call.name) ? MaskQuotedOperators(command) : std::string(command));
  const Hits hits = rules.Match(Target::kCommand, text);
  if (!hits.Has(RuleKind::kStep)) return out;
  int probe = -1, smoke = -1, control = -1, edit = -1;
  for (const int i : hits.rules) {
    const Rule& r = rules.rule(i);
    if (r.kind != RuleKind::kStep) continue;
    if (r.tag.rfind(kTagProbePrefix, 0) == 0 && r.tag.size() > kTagProbePrefix.size()) {
      if (probe < 0) probe = i;
    } else if (r.tag == kTagSmoke) {
      if (smoke < 0) smoke = i;
    } else if (r.tag == kTagControl) {
      if (control < 0) control = i;
    } else if (r.tag == kTagEdit) {
      if (edit < 0) edit = i;
    }
  }
  if (edit >= 0) {
    out.step = CallStep::kEdit;
    out.rule = edit;
  } else if (smoke >= 0) {
    out.step = CallStep::kSmoke;
    out.rule = smoke;
  } else if (control >= 0) {
    out.step = CallStep::kControl;
    out.rule = control;
  } else if (probe >= 0) {
    out.step = CallStep::kProbe;
    out.rule = probe;
    out.probe_kind = rules.rule(probe).tag.substr(kTagProbePrefix.size());
  }
  return out;
}

void NoteHypothesis(std::string_view sentence, int rule, ProtocolSteps* steps) {
  StepEvidence& h = steps->step(ProtocolStep::kHypothesis);
  if (h.seen) return;
  h.seen = true;
  h.text = std::string(sentence);
  h.rule = rule;
}

ProtocolSteps TrackSteps(const RuleSet& rules, const evidence::Turn& turn,
                         const std::vector<evidence::PastTurn>& earlier) {
  ProtocolSteps out;
  out.follow_up_rule = FollowUpRule(rules, turn.prompt);
  out.earlier_turns = static_cast<int>(earlier.size());

  std::vector<const evidence::ToolCall*> raw;  // session order
  for (auto it = earlier.rbegin(); it != earlier.rend(); ++it) {
    for (const evidence::ToolCall& c : it->tool_calls) raw.push_back(&c);
  }
  for (const evidence::ToolCall& c : turn.tool_calls) raw.push_back(&c);
  out.calls.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    out.calls.push_back(ClassifyCall(rules, *raw[i]));
    if (out.calls.back().id.empty()) out.calls.back().id = "#" + std::to_string(i);
  }

  // Tool output, newest first within the budget; code and config reads are
  // code, not the run's output.
  std::vector<std::vector<Symptom>> seen_in(raw.size());
  std::size_t budget = limits::kMaxSymptomScanBytesPerTurn;
  for (std::size_t i = raw.size(); i-- > 0;) {
    StepCall& call = out.calls[i];
    call.failed = raw[i]->is_error;
    if (ReadsSourceOrConfig(call)) continue;
    const std::size_t cost = std::min(raw[i]->output.size(), 2 * limits::kSymptomScanBytes);
    if (cost > budget) continue;
    budget -= cost;
    seen_in[i] = SymptomsInOutput(rules, *raw[i], call.id, call.label);
    call.failed = call.failed || !seen_in[i].empty();
  }
  MergeSymptoms(SymptomsInText(rules, turn.prompt.substr(0, limits::kMaxMessageBytes), SymptomSource::kPrompt),
                &out.symptoms);
  for (const evidence::PastTurn& past : earlier) {
    MergeSymptoms(SymptomsInText(rules, std::string_view(past.prompt).substr(0, limits::kMaxMessageBytes),
                                 SymptomSource::kPrompt),
                  &out.symptoms);
  }
  for (std::vector<Symptom>& found : seen_in) MergeSymptoms(std::move(found), &out.symptoms);

  FindControls(raw, &out.calls);
  for (const StepCall& c : out.calls) {
    ProtocolStep step = ProtocolStep::kProbe;
    switch (c.step) {
      case CallStep::kProbe: step = ProtocolStep::kProbe; break;
      case CallStep::kSmoke: step = ProtocolStep::kSmoke; break;
      case CallStep::kControl: step = ProtocolStep::kControl; break;
      case CallStep::kOther:
      case CallStep::kEdit: continue;
    }
    out.step(step).seen = true;
    out.step(step).tool_calls.push_back(c.id);
  }
  ReadNarration(rules, turn.narration, &out);
  return out;
}

std::string StepSummaryLine(const ProtocolSteps& steps) {
  auto labels = [&](CallStep kind) {
    std::vector<std::string> items;
    for (const StepCall& c : steps.calls) {
      if (c.step != kind) continue;
      std::string item = c.label;
      if (kind == CallStep::kProbe) item += "(" + c.probe_kind + ")";
      if (kind == CallStep::kControl && !c.changed.empty()) item += "(" + c.changed + ")";
      if (c.turns_back > 0) item += "[-" + std::to_string(c.turns_back) + "]";
      items.push_back(std::move(item));
    }
    return items.empty() ? std::string("-") : Join(items, ", ");
  };
  std::string line = "probe: " + labels(CallStep::kProbe);
  line += " | hypothesis: " + std::string(steps.step(ProtocolStep::kHypothesis).seen ? "yes" : "-");
  line += " | smoke: " + labels(CallStep::kSmoke);
  line += " | control: " + labels(CallStep::kControl);
  const StepEvidence& assert_step = steps.step(ProtocolStep::kAssert);
  std::vector<std::string> cited;
  for (const std::string& id : assert_step.tool_calls) {
    const auto call = std::find_if(steps.calls.begin(), steps.calls.end(), [&](const StepCall& c) { return c.id == id; });
    cited.push_back(call != steps.calls.end() ? call->label : id);
  }
  line += " | assert: " + (assert_step.seen ? Join(cited, ", ") : std::string("-"));
  std::vector<std::string> symptoms;
  for (const Symptom& s : steps.symptoms) {
    symptoms.push_back(s.name + "(" + SymptomSourceName(s.source) +
                       (s.call_label.empty() ? std::string() : " " + s.call_label) + ")");
  }
  line += " | symptoms: " + (symptoms.empty() ? std::string("-") : Join(symptoms, ", "));
  int edits = 0;
  for (const StepCall& c : steps.calls) edits += c.step == CallStep::kEdit;
  if (edits > 0) line += " | edits: " + std::to_string(edits);
  if (steps.earlier_turns > 0) line += " | follow-up: " + std::to_string(steps.earlier_turns) + " earlier turn(s)";
  line += " | next: " + std::string(NextStepName(steps.next()));
  return line;
}

}  // namespace causegate::rules
