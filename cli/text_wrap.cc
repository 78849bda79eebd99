#include "cli/text_wrap.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace causegate::cli {
namespace {

constexpr std::size_t kDefaultWidth = 100;
constexpr std::size_t kMinWidth = 40;
constexpr std::size_t kContinuationIndent = 4;

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Visible width of s: code points outside "\033[...m" colour escapes.
std::size_t VisibleWidth(std::string_view s) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\033') {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    if (!IsContinuationByte(s[i])) ++width;
  }
  return width;
}

void WrapLine(std::string_view line, std::size_t width, std::string* out) {
  std::size_t indent = 0;
  while (indent < line.size() && line[indent] == ' ') ++indent;
  const std::string continuation(indent + kContinuationIndent, ' ');
  bool first = true;
  while (true) {
    const std::size_t room = width > (first ? 0 : continuation.size()) ? width - (first ? 0 : continuation.size()) : 1;
    if (VisibleWidth(line) <= room) break;
    // The last space at which the visible part still fits; none: keep whole.
    std::size_t cut = std::string_view::npos;
    std::size_t seen = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\033') {
        while (i < line.size() && line[i] != 'm') ++i;
        continue;
      }
      if (IsContinuationByte(line[i])) continue;
      if (seen > room) break;
      if (line[i] == ' ' && i > indent && seen <= room) cut = i;
      ++seen;
    }
    if (cut == std::string_view::npos) break;
    out->append(line.substr(0, cut));
    out->push_back('\n');
    out->append(continuation);
    line.remove_prefix(cut + 1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    first = false;
  }
  out->append(line);
}

}  // namespace

std::string WrapLines(std::string_view text, std::size_t width) {
  if (width < kMinWidth) width = kMinWidth;
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    WrapLine(text.substr(0, nl), width, &out);
    if (nl == std::string_view::npos) break;
    out.push_back('\n');
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::size_t OutputWidth() {
  if (const char* columns = std::getenv("COLUMNS")) {
    const long n = std::strtol(columns, nullptr, 10);
    if (n > 0) return static_cast<std::size_t>(n);
  }
  winsize ws{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return kDefaultWidth;
}

}  // namespace causegate::cli
