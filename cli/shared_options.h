// What several commands share, declared once so it means the same in each:
// --max-blocks (0 to 100 everywhere, as the config file's max_blocks),
// whole-number ranges whose errors read as numbers ("150 is not a whole
// number from 0 to 100"), colour (--color beside NO_COLOR), and "-" for a
// transcript read from stdin.
// Tests: tests/e2e/cli_manners.py.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "evidence/status.h"

namespace causegate::cli {

inline constexpr int kMaxBlocksLimit = 100;

// A whole number from lo to hi; the help shows the range in words.
CLI::Validator WholeNumber(long long lo, long long hi);

// --max-blocks N on cmd, 0 to kMaxBlocksLimit.
CLI::Option* AddMaxBlocksOption(CLI::App* cmd, int* value, const std::string& help);

// Whether to colour what goes to fd: --color always/never decide; auto
// colours a terminal unless NO_COLOR is set to anything but "" or TERM is
// "dumb" (CLICOLOR_FORCE set to anything but "" or "0" forces it).
bool UseColor(const std::string& mode, int fd);

// A transcript given as "-": stdin copied to a temporary file (the readers
// seek), removed when this goes. Errors: stdin unreadable, the temporary
// file cannot be written.
class StdinTranscript {
 public:
  StdinTranscript() = default;
  StdinTranscript(const StdinTranscript&) = delete;
  StdinTranscript& operator=(const StdinTranscript&) = delete;
  ~StdinTranscript();
  Status Read();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// How a transcript "-" is named in reports and errors.
inline constexpr const char* kStdinName = "-";

}  // namespace causegate::cli
