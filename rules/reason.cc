// Writing the block reason. The reason is read by the agent, so it says
// exactly which sentence failed and why in the agent's own terms, then
// where it stands in the debug protocol and the one next step that fits its
// symptom, rather than reciting all five steps: an agent that probed reads
// "no smoke test yet: re-run one step at batch size 1", not a wall of text.
// The full protocol comes back when the agent did nothing at all (it needs
// every step) and from the second block on (the short form did not work).
// The block number is part of the text, so a second block never repeats the
// first word for word.
// Tests: tests/unit/rules/reason_test.cc, model_output_verdict_test.cc,
// tests/e2e/reason_variants.py.
#include "rules/reason.h"

#include <algorithm>

#include "evidence/model_output.h"
#include "evidence/text_fold.h"
#include "rules/embedded.h"
#include "rules/protocol_advice.h"

namespace causegate::rules {
namespace {

constexpr std::size_t kMaxSentenceChars = 240;
constexpr std::size_t kMaxListedClaims = 8;

struct Words {
  const char* header_one;
  const char* header_many;  // %d claims
  const char* finding;
  const char* rule;
  const char* why_no_probe;
  const char* why_no_citation;
  const char* why_fabricated;      // quote follows
  const char* why_self_made;       // quote follows
  const char* why_user_only;       // quote follows
  const char* why_subagent_words;  // %s: the tool; quote follows
  const char* why_summary_words;   // %s: the tool; quote follows
  const char* more;                // %d more
  const char* ways_out;
  const char* attempt;             // %d of %d
  const char* header_guess_fix;    // only a guess-fix was blocked
  const char* why_guess_fix;       // %s: the edit
  const char* guess_fix_note;      // %s: the edit, %q: the hedge
  const char* debug_skill;         // %s: the skill's path
};

const Words kEnglish = {
    "causegate blocked this stop: 1 causal claim is not backed by tool output.",
    "causegate blocked this stop: %d causal claims are not backed by tool output.",
    "finding",
    "rule",
    "no tool ran in this turn: you named a cause before probing anything.",
    "tools ran, but nothing they printed is quoted for this claim (naming a tool is not a citation).",
    "this quote appears in no tool output of the session: ",
    "this quote is mostly text you supplied yourself (a command line, echo, printf, a file you wrote), shown back by a tool: ",
    "this quote is only in the user's own words, not in any tool output: ",
    "this quote appears only in the subagent's own words (%s output), which it did not quote from its tool output: ",
    "this quote appears only in a model's summary (%s output), not in anything it quoted from what it read: ",
    "... and %d more unsupported claims.",
    "Two ways out: quote the tool output that proves the cause verbatim (inline code, a fenced block, or an Evidence: line), "
    "or restate the cause as a hypothesis and keep probing.",
    "This is block %d of at most %d for this turn.",
    "causegate blocked this stop: the turn changed code or config to fix a cause it only hedged, without probing first.",
    "you changed code or config (%s) to fix a cause you only hedged, and nothing looked at the failure: "
    "probe first, smoke-test the hypothesis, then fix.",
    "this turn changed code or config (%s) to fix a cause it only hedged (%q) without probing first (guess-fix); "
    "treat the fix as untested.",
    "The debug skill (causegate:debug) walks through each step: %s",
};

const Words kChinese = {
    "causegate 拦下了这次停止：有 1 条因果断言没有工具输出佐证。",
    "causegate 拦下了这次停止：有 %d 条因果断言没有工具输出佐证。",
    "判定",
    "规则",
    "本轮没有运行任何工具：还没探查就断言了原因。",
    "工具运行过，但这条断言没有引用它们的任何输出（只说出工具名不算引用）。",
    "这段引用在本会话的任何工具输出里都找不到：",
    "这段引用大部分是你自己提供的文本（命令行、echo、printf、你自己写的文件），只是被工具回显出来：",
    "这段引用只出现在用户自己的话里，不在任何工具输出中：",
    "这段引用只出现在子代理自己的话里（%s 的输出），它并没有从自己的工具输出中引用这段话：",
    "这段引用只出现在模型写的摘要里（%s 的输出），不是它从所读内容中逐字引用的原文：",
    "……另有 %d 条没有佐证的断言。",
    "两种做法任选其一：逐字引用能证明原因的工具输出（行内代码、代码块或“证据：”行），或者把原因改写为假设，继续探查。",
    "这是本轮第 %d 次拦截，最多 %d 次。",
    "causegate 拦下了这次停止：本轮在探查之前就改了代码或配置，去修一个只是猜测的原因。",
    "你改了代码或配置（%s），去修一个只是猜测的原因，却没有任何探查：先探查，再对假设做冒烟测试，然后再修。",
    "本轮在没有先探查的情况下改了代码或配置（%s），去修一个只是猜测的原因（%q）（guess-fix）；这个修复未经验证。",
    "调试技能（causegate:debug）逐步说明每一步：%s",
};

// Replaces the first "%d" with a and the second with b.
std::string Format(const char* pattern, int a, int b = 0) {
  std::string out(pattern);
  for (const int value : {a, b}) {
    const std::size_t at = out.find("%d");
    if (at == std::string::npos) break;
    out.replace(at, 2, std::to_string(value));
  }
  return out;
}

// The first fragment that decided a fabricated / user-only finding.
const CitationCheck* Culprit(const Claim& claim) {
  for (const CitationCheck& c : claim.citations) {
    if (claim.finding == Finding::kUserOnly && c.source == evidence::Source::kUserMessage) return &c;
    if (claim.finding == Finding::kFabricated &&
        (c.source == evidence::Source::kNowhere || c.source == evidence::Source::kSelfMadeOutput)) {
      return &c;
    }
  }
  return nullptr;
}

std::string QuoteOf(const CitationCheck& c, const Verdict& verdict) {
  return "\"" + Shorten(verdict.message.fragments[static_cast<std::size_t>(c.fragment)].text, 160) + "\"";
}

// A no-citation claim that quoted a model's own words (a subagent's answer,
// a fetch summary) is told where the quote was and why it does not count.
std::string ReportedSpeech(const Claim& claim, const Verdict& verdict, const Words& w) {
  for (const CitationCheck& c : claim.citations) {
    if (c.source != evidence::Source::kModelText) continue;
    const bool subagent = evidence::ModelWrittenOutput(c.tool) == evidence::ModelAuthor::kSubagent;
    std::string why(subagent ? w.why_subagent_words : w.why_summary_words);
    if (const std::size_t at = why.find("%s"); at != std::string::npos) why.replace(at, 2, c.tool);
    return why + QuoteOf(c, verdict);
  }
  return "";
}

std::string Explanation(const Claim& claim, const Verdict& verdict, const Words& w) {
  switch (claim.finding) {
    case Finding::kNoProbe: return w.why_no_probe;
    case Finding::kNoCitation: {
      const std::string reported = ReportedSpeech(claim, verdict, w);
      return reported.empty() ? w.why_no_citation : reported;
    }
    case Finding::kFabricated:
    case Finding::kUserOnly: {
      const CitationCheck* c = Culprit(claim);
      if (!c) return "";
      const std::string quote = QuoteOf(*c, verdict);
      if (claim.finding == Finding::kUserOnly) return w.why_user_only + quote;
      if (c->source == evidence::Source::kSelfMadeOutput) return w.why_self_made + quote;
      return w.why_fabricated + quote;
    }
    case Finding::kSupported: return "";
  }
  return "";
}

std::string Fill(const char* pattern, const std::string& edit, const std::string& hedge) {
  std::string out(pattern);
  if (const std::size_t at = out.find("%s"); at != std::string::npos) out.replace(at, 2, edit);
  if (const std::size_t at = out.find("%q"); at != std::string::npos) out.replace(at, 2, hedge);
  return out;
}

bool GuessFixListed(const Verdict& verdict, const ReasonOptions& options) {
  return options.guess_fix && verdict.guess_fix.found;
}

}  // namespace

std::string GuessFixNote(const Verdict& verdict) {
  const GuessFix& g = verdict.guess_fix;
  if (!g.found) return "";
  const bool chinese = verdict.chinese();
  const std::string hedge = chinese ? "“" + Shorten(g.hedge, 120) + "”" : "\"" + Shorten(g.hedge, 120) + "\"";
  return Fill((chinese ? kChinese : kEnglish).guess_fix_note, g.edit_label, hedge);
}

std::string GuessFixWarning(const Verdict& verdict) {
  const std::string note = GuessFixNote(verdict);
  if (note.empty()) return "";
  return (verdict.chinese() ? "causegate：" : "causegate: ") + note;
}

bool WantsFullProtocol(const Verdict& verdict, const ReasonOptions& options) {
  return verdict.protocol.nothing_done() || options.block_number >= 2;
}

std::string Shorten(const std::string& s, std::size_t max_chars) {
  if (evidence::CountCodePoints(s) <= max_chars) return s;
  std::size_t chars = 0;
  std::size_t i = 0;
  while (i < s.size() && chars + 1 < max_chars) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    if (i + len > s.size()) break;
    i += len;
    ++chars;
  }
  return s.substr(0, i) + "…";
}

std::string ProtocolText(bool chinese) {
  const EmbeddedFile* f = FindEmbedded(chinese ? "zh.md" : "en.md");
  if (!f) return "";
  std::string text(f->contents);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string RenderReason(const Verdict& verdict, const RuleSet& rules, const ReasonOptions& options) {
  const bool chinese = verdict.chinese();
  const Words& w = chinese ? kChinese : kEnglish;
  const Language language = chinese ? Language::kChinese : Language::kEnglish;
  const int unsupported = verdict.unsupported();
  const bool guess_fix = GuessFixListed(verdict, options);
  std::string out = unsupported == 0 && guess_fix ? std::string(w.header_guess_fix)
                    : unsupported == 1            ? std::string(w.header_one)
                                                  : Format(w.header_many, unsupported);
  out += "\n";
  std::size_t listed = 0;
  for (const Claim& claim : verdict.claims) {
    if (claim.finding == Finding::kSupported) continue;
    if (listed == kMaxListedClaims) {
      out += "\n" + Format(w.more, unsupported - static_cast<int>(listed)) + "\n";
      break;
    }
    ++listed;
    const Sentence& s = verdict.message.sentences[static_cast<std::size_t>(claim.sentence)];
    out += "\n- \"" + Shorten(s.text, kMaxSentenceChars) + "\"\n";
    out += std::string("  ") + w.finding + ": " + FindingName(claim.finding) + " (" + w.rule + " " +
           rules.rule(claim.rule).id + ")\n";
    const std::string why = Explanation(claim, verdict, w);
    if (!why.empty()) out += "  " + why + "\n";
  }
  if (guess_fix) {
    const GuessFix& g = verdict.guess_fix;
    out += "\n- \"" + Shorten(g.hedge, kMaxSentenceChars) + "\"\n";
    out += std::string("  ") + w.finding + ": guess-fix (" + w.rule + " " +
           (g.edit_rule >= 0 ? rules.rule(g.edit_rule).id : std::string("?")) + ")\n";
    out += "  " + Fill(w.why_guess_fix, g.edit_label, "") + "\n";
  }
  out += "\n";
  if (!verdict.protocol.nothing_done()) out += ProtocolAdvice(verdict.protocol, language) + "\n";
  out += WantsFullProtocol(verdict, options) ? (verdict.protocol.nothing_done() ? "" : "\n") + ProtocolText(chinese)
                                             : ReportShape(language);
  out += "\n\n" + std::string(w.ways_out) + "\n";
  if (!options.debug_skill.empty()) out += Fill(w.debug_skill, options.debug_skill, "") + "\n";
  out += Format(w.attempt, options.block_number, options.max_blocks);
  if (evidence::CountCodePoints(out) > kMaxReasonChars) out = Shorten(out, kMaxReasonChars);
  return out;
}

}  // namespace causegate::rules
