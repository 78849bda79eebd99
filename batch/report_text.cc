// --format text: one line per unsupported claim, where an editor or a
// person jumps to it (file:line of the turn's final message), then the
// sentence; one line per unreadable file and per file not judged (a
// compaction summary); the summary last.
#include <string>

#include "batch/report.h"

namespace causegate::batch {

std::string RenderText(const CheckResults& results) {
  std::string out;
  for (const TurnRecord& turn : results.turns) {
    if (!turn.flagged()) continue;
    for (const ClaimRecord& claim : turn.claims) {
      if (claim.supported()) continue;
      out += Where(turn.file, turn.final_line) + ": turn " + std::to_string(turn.turn) + ": " + turn.action + ": " +
             claim.finding + " (" + claim.rule + "): \"" + OneLine(claim.sentence, 200) + "\"\n";
    }
  }
  for (const FileRecord& file : results.files) {
    if (file.unreadable()) out += file.path + ": unreadable: " + file.error + "\n";
    if (!file.not_judged.empty()) out += file.path + ": not judged: " + file.not_judged + "\n";
  }
  out += "causegate check: " + SummaryLine(Summarize(results)) + "\n";
  return out;
}

}  // namespace causegate::batch
