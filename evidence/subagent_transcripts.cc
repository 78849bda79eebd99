// Opening a subagent's own transcript and asking its evidence index. A file
// that is not there is the ordinary case for a transcript copied without
// its session folder (explain, check on saved files), so it is logged at
// debug level only; the caller then counts what the subagent quoted.
// Tests: tests/unit/evidence/model_output_test.cc.
#include "evidence/subagent_transcripts.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "evidence/evidence_index.h"
#include "evidence/limits.h"
#include "evidence/transcript.h"

namespace causegate::evidence {

struct SubagentTranscripts::Transcript {
  std::string id;
  LastTurn last;
  std::unique_ptr<EvidenceIndex> index;  // null when the file was not read
};

SubagentTranscripts::SubagentTranscripts(std::string folder, QuotedSpanFinder quoted_spans, int depth,
                                         std::size_t* evidence_bytes, std::vector<std::string> expected)
    : folder_(std::move(folder)), quoted_spans_(std::move(quoted_spans)), depth_(depth),
      evidence_bytes_(evidence_bytes), expected_(std::move(expected)) {}

SubagentTranscripts::~SubagentTranscripts() = default;

SubagentTranscripts::Found SubagentTranscripts::Find(std::string_view agent_id, std::string_view fragment) {
  if (agent_id.empty() || folder_.empty() || depth_ > limits::kMaxSubagentDepth) return Found::kUnavailable;
  Transcript* transcript = Open(agent_id);
  if (transcript->index == nullptr) return Found::kUnavailable;
  return transcript->index->Locate(fragment).source == Source::kToolOutput ? Found::kInToolOutput
                                                                            : Found::kNotInToolOutput;
}

SubagentTranscripts::Transcript* SubagentTranscripts::Open(std::string_view agent_id) {
  for (const std::unique_ptr<Transcript>& t : opened_) {
    if (t->id == agent_id) return t.get();
  }
  auto transcript = std::make_unique<Transcript>();
  transcript->id = std::string(agent_id);
  const std::string path = SubagentTranscriptPath(folder_, agent_id);
  if (Status s = ReadLastTurn(path, SessionKind::kSubagent, &transcript->last); !s.ok()) {
    spdlog::debug("subagent transcript not read, its quotes count as quoted: {}", s.message());
  } else {
    transcript->index.reset(new EvidenceIndex(transcript->last.turn, transcript->last.history.get(), quoted_spans_,
                                              depth_, evidence_bytes_));
    transcript->index->Expect(std::vector<std::string_view>(expected_.begin(), expected_.end()));
  }
  opened_.push_back(std::move(transcript));
  return opened_.back().get();
}

}  // namespace causegate::evidence
