// Long lines wrapped at word boundaries for a person's terminal: explain's
// lines (a sentence, a step summary, a tool line) are often wider than the
// terminal, which then cuts them mid-word. A wrapped line goes on under its
// own indentation plus four spaces; a line with no space to break at stays
// whole. Width counts code points, not bytes, and skips colour escapes.
// Tests: tests/unit/cli/text_wrap_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace causegate::cli {

std::string WrapLines(std::string_view text, std::size_t width);

// The terminal's width for stdout: $COLUMNS, else the terminal's own, else
// 100 (a file or a pipe).
std::size_t OutputWidth();

}  // namespace causegate::cli
