// Judging a turn: parse the final message, classify each prose sentence,
// then for every claim look up each long-enough fragment placed with it
// (all the claims' fragments announced to the index first, at most
// limits::kMaxFragmentsPerMessage of them). One
// fragment found in real tool output supports the claim; otherwise the
// findings are tried in the spec's order. The evidence index reads earlier
// turns only when a fragment is not in this turn's output, so a turn whose
// citations are all local never touches the rest of the transcript. What a
// subagent or a fetch tool's model quoted in its output is read by the same
// parser as the final message (QuotedSpans), handed to the index.
#include "rules/verdict.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "evidence/limits.h"
#include "evidence/text_fold.h"
#include "rules/prefetched_history.h"
#include "rules/shape_backstop.h"

namespace causegate::rules {

const char* FindingName(Finding finding) {
  switch (finding) {
    case Finding::kSupported: return "supported";
    case Finding::kFabricated: return "fabricated";
    case Finding::kUserOnly: return "user-only";
    case Finding::kNoProbe: return "no-probe";
    case Finding::kNoCitation: return "no-citation";
  }
  return "unknown";
}

int Verdict::unsupported() const {
  int n = 0;
  for (const Claim& c : claims) n += c.finding != Finding::kSupported;
  return n;
}

bool Verdict::chinese() const {
  for (const Claim& c : claims) {
    if (c.finding != Finding::kSupported) return c.chinese;
  }
  if (guess_fix.found) return guess_fix.chinese;
  return !claims.empty() && claims.front().chinese;
}

namespace {

Finding FindingFor(const std::vector<CitationCheck>& checks, bool tools_ran) {
  bool fabricated = false;
  bool user_only = false;
  for (const CitationCheck& c : checks) {
    switch (c.source) {
      case evidence::Source::kToolOutput: return Finding::kSupported;
      case evidence::Source::kSelfMadeOutput:
      case evidence::Source::kNowhere: fabricated = true; break;
      case evidence::Source::kUserMessage: user_only = true; break;
      case evidence::Source::kToolInput: break;  // a reference: neutral
      case evidence::Source::kModelText: break;  // reported speech: cites nothing
    }
  }
  if (fabricated) return Finding::kFabricated;
  if (user_only) return Finding::kUserOnly;
  return tools_ran ? Finding::kNoCitation : Finding::kNoProbe;
}

// Evidence-section openers of the packs (evidence-marker rules) at the
// start of a line, beyond the spec's own.
ExtraMarkers EvidenceMarkers(const RuleSet& rules) {
  return [&rules](std::string_view line) -> std::size_t {
    const Hits hits = rules.Match(Target::kLine, line);
    for (const int r : hits.rules) {
      std::size_t begin = 0;
      std::size_t end = 0;
      if (rules.rule(r).kind == RuleKind::kEvidenceMarker && rules.MatchRule(r, line, &begin, &end) && begin == 0) {
        return end;
      }
    }
    return std::string_view::npos;
  };
}

// What a model quoted in output it wrote (evidence/model_output.h): the
// fragments of that text, read as a final message is read, so a subagent
// has quoted exactly where a final message would have cited.
evidence::QuotedSpanFinder QuotedSpans(const RuleSet& rules) {
  return [markers = EvidenceMarkers(rules)](std::string_view text) {
    std::vector<std::string> spans;
    for (Fragment& fragment : ParseMessage(text, markers).fragments) spans.push_back(std::move(fragment.text));
    return spans;
  };
}

// The whole line(s) of output around a match, for people reading a verdict.
std::string ExcerptAround(const std::string& output, std::size_t offset) {
  constexpr std::size_t kMaxExcerpt = 400;
  offset = std::min(offset, output.size());
  std::size_t begin = output.rfind('\n', offset);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::size_t end = output.find('\n', offset);
  if (end == std::string::npos) end = output.size();
  if (end - begin > kMaxExcerpt) {
    begin = offset > kMaxExcerpt / 2 ? std::max(begin, offset - kMaxExcerpt / 2) : begin;
    end = std::min(end, begin + kMaxExcerpt);
  }
  return output.substr(begin, end - begin);
}

// A command the agent proposes to run next ("Next probe: `dmesg | tail`")
// is a plan, not a citation (spec section 2): an inline code span in a
// sentence a proposed-command feature matches, found nowhere, is no quote.
bool ProposedCommand(const RuleSet& rules, const Message& message, const Fragment& fragment) {
  if (fragment.origin != FragmentOrigin::kInlineCode) return false;
  const Sentence* holder = nullptr;
  for (const Sentence& s : message.sentences) {
    if (s.offset > fragment.offset) break;
    holder = &s;
  }
  if (holder == nullptr) return false;
  return FeatureTagged(rules, rules.Match(Target::kSentence, holder->masked), kProposedCommandTag) >= 0;
}

// The long-enough fragments placed with some claim, in message order, up
// to limits::kMaxFragmentsPerMessage distinct texts. The rest are never
// looked up and count as no quote at all: volume cannot buy a pass, as a
// claim that only they would support stays unsupported.
struct CitedFragments {
  std::vector<bool> admitted;           // per fragment of the message
  std::vector<std::string_view> texts;  // the distinct admitted texts
  int past_cap = 0;                     // distinct texts left out
};

CitedFragments CiteableFragments(const Message& message, const std::vector<Claim>& claims) {
  CitedFragments cited;
  cited.admitted.assign(message.fragments.size(), false);
  std::vector<bool> placed(message.fragments.size(), false);
  for (const Claim& claim : claims) {
    for (const int f : message.FragmentsFor(message.sentences[static_cast<std::size_t>(claim.sentence)])) {
      placed[static_cast<std::size_t>(f)] = message.fragments[static_cast<std::size_t>(f)].long_enough;
    }
  }
  std::unordered_set<std::string_view> seen;
  std::unordered_set<std::string_view> left_out;
  for (std::size_t f = 0; f < message.fragments.size(); ++f) {
    if (!placed[f]) continue;
    const std::string_view text = message.fragments[f].text;
    if (seen.count(text) == 0) {
      if (seen.size() >= limits::kMaxFragmentsPerMessage) {
        left_out.insert(text);
        continue;
      }
      seen.insert(text);
      cited.texts.push_back(text);
    }
    cited.admitted[f] = true;
  }
  cited.past_cap = static_cast<int>(left_out.size());
  return cited;
}

CitationCheck MakeCheck(int fragment, const evidence::Sighting& sighting) {
  CitationCheck check;
  check.fragment = fragment;
  check.source = sighting.source;
  if (const evidence::ToolCall* call = sighting.call) {
    check.call_id = call->id;
    check.tool = call->name;
    check.command = call->command;
    check.turns_back = call->turns_back;
    check.line = call->line;
    if (sighting.source != evidence::Source::kToolInput) check.excerpt = ExcerptAround(call->output, sighting.offset);
  }
  return check;
}

// The final message's part of the protocol: a hypothesis stated there, the
// symptoms the unsupported claims suspect, and the calls whose output
// supports a claim (the assert step).
void CompleteProtocol(const RuleSet& rules, Verdict* v) {
  ProtocolSteps& p = v->protocol;
  for (std::size_t i = 0; i < v->message.sentences.size() && !p.step(ProtocolStep::kHypothesis).seen; ++i) {
    const Sentence& s = v->message.sentences[i];
    const SentenceClass& c = v->sentences[i];
    int rule = FirstTaggedRule(rules, s.masked, kTagHypothesis);
    if (rule < 0 && c.hedged() && c.exemption_rule < 0 && (c.causal() || c.names_failure())) rule = c.hedge_rule;
    if (rule >= 0) NoteHypothesis(s.text, rule, &p);
  }
  for (const Claim& claim : v->claims) {
    if (claim.finding != Finding::kSupported) {
      const Sentence& s = v->message.sentences[static_cast<std::size_t>(claim.sentence)];
      MergeSymptoms(SymptomsInText(rules, s.masked, SymptomSource::kClaim), &p.symptoms);
      continue;
    }
    StepEvidence& a = p.step(ProtocolStep::kAssert);
    a.seen = true;
    for (const CitationCheck& c : claim.citations) {
      if (c.source != evidence::Source::kToolOutput) continue;
      const std::string id = !c.call_id.empty() ? c.call_id : c.tool + ": " + c.command;
      if (std::find(a.tool_calls.begin(), a.tool_calls.end(), id) == a.tool_calls.end()) a.tool_calls.push_back(id);
    }
  }
}

}  // namespace

Verdict JudgeTurn(const evidence::Turn& turn, evidence::History* history, const RuleSet& rules,
                  const ClaimScorer& scorer, const ClaimScorer& shapes) {
  Verdict v;
  std::string_view text = turn.final_message;
  if (text.size() > limits::kMaxMessageBytes) {
    text = text.substr(0, limits::kMaxMessageBytes);
    v.message_truncated = true;
  }
  v.message = ParseMessage(text, EvidenceMarkers(rules));
  v.diagnostic_rule = DiagnosticRule(rules, turn.prompt);
  v.tool_calls = static_cast<int>(turn.tool_calls.size());

  std::vector<evidence::PastTurn> earlier = LoadDiagnosisTurns(rules, turn.prompt, history);
  // A follow-up ("continue", "still failing") in a debugging session is a
  // diagnosis too: the turn it carries on asked for one.
  for (std::size_t i = 0; i < earlier.size() && v.diagnostic_rule < 0; ++i) {
    v.diagnostic_rule = DiagnosticRule(rules, earlier[i].prompt);
    v.diagnosis_from_earlier_turn = v.diagnostic_rule >= 0;
  }
  v.protocol = TrackSteps(rules, turn, earlier);
  PrefetchedHistory replay(std::move(earlier), history);
  evidence::EvidenceIndex index(turn, history != nullptr ? &replay : nullptr, QuotedSpans(rules));
  v.sentences.reserve(v.message.sentences.size());
  v.scores.reserve(v.message.sentences.size());
  const MessagePlaces places(rules, v.message);
  const ShapeTurn shape_turn = v.shape_turn();
  for (std::size_t i = 0; i < v.message.sentences.size(); ++i) {
    const Sentence& sentence = v.message.sentences[i];
    v.sentences.push_back(ClassifySentence(rules, sentence.masked));
    const SentenceClass& c = v.sentences.back();
    const SentencePlace place = places.Of(sentence);
    v.scores.push_back(ScoreSentence(rules, scorer, sentence.masked, c, place, v.diagnostic_rule >= 0));
    ConsiderShape(rules, scorer, shapes, sentence.masked, c, place, shape_turn, &v.scores.back());
    const ClaimScore& score = v.scores.back();
    if (!score.claim) continue;
    // The same sentence written twice (a retry that repeats itself) is one
    // claim: the reason never lists it twice.
    const bool repeated = std::any_of(v.claims.begin(), v.claims.end(), [&](const Claim& kept) {
      const Sentence& first = v.message.sentences[static_cast<std::size_t>(kept.sentence)];
      return first.masked == sentence.masked && v.message.FragmentsFor(first) == v.message.FragmentsFor(sentence);
    });
    if (repeated) continue;
    Claim claim;
    claim.sentence = static_cast<int>(i);
    claim.rule = score.rule;
    claim.chinese = evidence::LooksChinese(sentence.text);
    v.claims.push_back(std::move(claim));
  }

  // Every quote the claims cite, announced at once: the index then reads
  // each output once for all of them, and answers each quote once however
  // many claims cite it.
  const CitedFragments cited = CiteableFragments(v.message, v.claims);
  v.fragments_past_cap = cited.past_cap;
  index.Expect(cited.texts);
  for (Claim& claim : v.claims) {
    const Sentence& sentence = v.message.sentences[static_cast<std::size_t>(claim.sentence)];
    for (const int f : v.message.FragmentsFor(sentence)) {
      if (!cited.admitted[static_cast<std::size_t>(f)]) continue;
      const Fragment& fragment = v.message.fragments[static_cast<std::size_t>(f)];
      const evidence::Sighting sighting = index.Locate(fragment.text);
      if (sighting.source == evidence::Source::kNowhere && ProposedCommand(rules, v.message, fragment)) continue;
      claim.citations.push_back(MakeCheck(f, sighting));
      // One real citation is enough; later fragments need no look-up.
      if (sighting.source == evidence::Source::kToolOutput) break;
    }
    claim.finding = FindingFor(claim.citations, !turn.tool_calls.empty());
  }
  v.turns_read_back = index.turns_loaded();
  CompleteProtocol(rules, &v);
  v.guess_fix = FindGuessFix(rules, turn, v.protocol, v.message, v.sentences, v.diagnostic_rule);
  v.decision = v.unsupported() > 0 ? Decision::kBlock : Decision::kAllow;
  return v;
}

}  // namespace causegate::rules
