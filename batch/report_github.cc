// --format github: workflow commands that GitHub Actions turns into
// annotations on the transcript's line (docs: "Workflow commands for
// GitHub Actions", setting an error / warning message). A blocked turn's
// claims are errors, an unproven one's warnings. Data is escaped as the
// runner expects (% \r \n, and : , in properties).
#include <string>

#include "batch/report.h"

namespace causegate::batch {
namespace {

std::string EscapeData(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string EscapeProperty(std::string_view text) {
  std::string out;
  for (const char c : EscapeData(text)) {
    switch (c) {
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::string RenderGithub(const CheckResults& results) {
  std::string out;
  for (const TurnRecord& turn : results.turns) {
    if (!turn.flagged()) continue;
    const char* level = turn.blocked() ? "error" : "warning";
    for (const ClaimRecord& claim : turn.claims) {
      if (claim.supported()) continue;
      std::string properties = "file=" + EscapeProperty(turn.file);
      if (turn.final_line > 0) properties += ",line=" + std::to_string(turn.final_line);
      properties += ",title=" + EscapeProperty("causegate: " + claim.finding + " (" + claim.rule + ")");
      const std::string message = "Turn " + std::to_string(turn.turn) + ": causal claim not backed by tool output: \"" +
                                  OneLine(claim.sentence, 300) + "\"";
      out += std::string("::") + level + " " + properties + "::" + EscapeData(message) + "\n";
    }
  }
  for (const FileRecord& file : results.files) {
    if (file.unreadable()) {
      out += "::error file=" + EscapeProperty(file.path) + ",title=causegate%3A unreadable transcript::" +
             EscapeData(file.error) + "\n";
    }
  }
  out += "causegate check: " + SummaryLine(Summarize(results)) + "\n";
  return out;
}

}  // namespace causegate::batch
