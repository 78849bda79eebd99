#include "batch/outputs.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <map>

namespace causegate::batch {

Status ParseOutputSpec(std::string_view text, OutputSpec* out) {
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) {
    return Status::Error("--output " + std::string(text) + ": expected FORMAT=FILE (formats: " + ReportFormatList() +
                         ")");
  }
  OutputSpec spec;
  if (!ParseReportFormat(text.substr(0, eq), &spec.format)) {
    return Status::Error("--output " + std::string(text) + ": unknown format \"" + std::string(text.substr(0, eq)) +
                         "\" (formats: " + ReportFormatList() + ")");
  }
  spec.path = std::string(text.substr(eq + 1));
  *out = std::move(spec);
  return Status::Ok();
}

Status WriteReports(std::optional<ReportFormat> stdout_format, const std::vector<OutputSpec>& files,
                    const CheckResults& results, const rules::RuleSet& rules, const ReportOptions& options) {
  std::map<ReportFormat, std::string> rendered;
  auto render = [&](ReportFormat format) -> const std::string& {
    auto it = rendered.find(format);
    if (it == rendered.end()) it = rendered.emplace(format, RenderReport(format, results, rules, options)).first;
    return it->second;
  };
  // The JSON document holds every turn object: written a turn at a time,
  // never whole in memory (spilled objects are read back one by one).
  auto write_json = [&results](std::FILE* f) {
    return WriteJson(results, [f](std::string_view piece) {
      return std::fwrite(piece.data(), 1, piece.size(), f) == piece.size() ? Status::Ok()
                                                                            : Status::Error("cannot write");
    });
  };
  for (const OutputSpec& spec : files) {
    if (spec.format == ReportFormat::kJson) {
      std::FILE* f = std::fopen(spec.path.c_str(), "wb");
      if (f == nullptr) return Status::Error(spec.path + ": cannot write the json report");
      const Status s = write_json(f);
      const bool closed = std::fclose(f) == 0;
      if (!s.ok() || !closed) {
        return Status::Error(spec.path + ": cannot write the json report" + (s.ok() ? "" : ": " + s.message()));
      }
      continue;
    }
    const std::string& text = render(spec.format);
    std::ofstream out(spec.path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) return Status::Error(spec.path + ": cannot write the " + ReportFormatName(spec.format) + " report");
  }
  if (stdout_format == ReportFormat::kJson) {
    const Status s = write_json(stdout);
    if (!s.ok() || std::fflush(stdout) != 0) {
      return Status::Error("stdout: cannot write the report" + (s.ok() ? "" : ": " + s.message()));
    }
  } else if (stdout_format) {
    const std::string& text = render(*stdout_format);
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      return Status::Error("stdout: cannot write the report");
    }
  }
  return Status::Ok();
}

Status ParseRate(std::string_view text, double* rate) {
  std::string_view number = text;
  double scale = 1.0;
  if (!number.empty() && number.back() == '%') {
    number.remove_suffix(1);
    scale = 0.01;
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  value *= scale;
  if (number.empty() || ec != std::errc() || end != number.data() + number.size() || value < 0 || value > 1) {
    return Status::Error("--max-block-rate " + std::string(text) + ": expected a fraction from 0 to 1 or a percentage");
  }
  *rate = value;
  return Status::Ok();
}

int ExitCode(const Summary& summary, const ExitPolicy& policy, int input_errors) {
  if (input_errors > 0 || summary.unreadable > 0) return kExitInputError;
  if (summary.flagged() == 0) return kExitClean;
  if (policy.max_block_rate && summary.block_rate() <= *policy.max_block_rate) return kExitClean;
  return kExitBlocked;
}

}  // namespace causegate::batch
