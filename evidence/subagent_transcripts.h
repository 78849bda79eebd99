// What a Claude Code subagent's own transcript says of a quote from its
// answer: whether the subagent's real tool output holds it. Internal to
// evidence/, used by EvidenceIndex (spec: judgement.md section 3, "A
// subagent's answer ... is evidence for the parent only where that model
// itself quoted its own tool output").
//
// A file is opened on the first question about its subagent and kept for
// the rest of the index's life; its tool output is searched by an
// EvidenceIndex of its own, so self-made output, earlier turns (a subagent
// continued with SendMessage) and the subagent's own subagents count there
// as they do in the session judged. Every index shares the judged
// session's kMaxEvidenceBytes, and files deeper than kMaxSubagentDepth are
// not read. Thread-compatible.
// Tests: tests/unit/evidence/model_output_test.cc.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/model_output.h"

namespace causegate::evidence {

class SubagentTranscripts {
 public:
  enum class Found {
    kUnavailable,      // no id, no file, an unreadable file, or too deep
    kInToolOutput,     // the subagent's real tool output holds the fragment
    kNotInToolOutput,  // its transcript was read and does not
  };

  // folder: Turn::subagent_folder. depth: that of the files opened here
  // (1 for the judged session's subagents). expected: the fragments the
  // judged message quotes, announced to each file's index at once
  // (EvidenceIndex::Expect) so that it is scanned once for all of them.
  // REQUIRES: evidence_bytes outlives this object.
  SubagentTranscripts(std::string folder, QuotedSpanFinder quoted_spans, int depth,
                      std::size_t* evidence_bytes, std::vector<std::string> expected = {});
  ~SubagentTranscripts();

  // fragment is raw text as quoted. A read error is logged, not returned.
  Found Find(std::string_view agent_id, std::string_view fragment);

 private:
  struct Transcript;
  Transcript* Open(std::string_view agent_id);

  std::string folder_;
  QuotedSpanFinder quoted_spans_;
  int depth_;
  std::size_t* evidence_bytes_;
  std::vector<std::string> expected_;
  std::vector<std::unique_ptr<Transcript>> opened_;  // also the ones that failed
};

}  // namespace causegate::evidence
