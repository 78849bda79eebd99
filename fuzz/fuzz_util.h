// What every fuzz target shares: silenced logs (a fuzzer runs millions of
// inputs; the libraries' warnings would drown its own output), a private
// scratch folder for targets that must go through a file, and the split of
// one input into the several texts a target needs.
#pragma once

#include <spdlog/spdlog.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace causegate::fuzz {

inline void QuietLogs() { spdlog::set_level(spdlog::level::off); }

inline std::string_view AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits text at each '\0' into at most `parts` pieces (the last piece
// keeps any further NULs); missing pieces are empty.
inline std::vector<std::string_view> SplitNul(std::string_view text, std::size_t parts) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < parts) {
    const std::size_t nul = text.find('\0');
    if (nul == std::string_view::npos) break;
    out.push_back(text.substr(0, nul));
    text.remove_prefix(nul + 1);
  }
  out.push_back(text);
  out.resize(parts);
  return out;
}

// A folder of this process's own under $TMPDIR (or /tmp), removed at normal
// exit (libFuzzer's -max_total_time and -runs end with exit()). A crash
// leaves it behind, next to the crashing input, for inspection. The path
// lives on the heap, never destroyed: the exit handler runs after the
// destructors of statics made before it.
inline const std::string& ScratchDir() {
  static const std::string* const dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    auto* path = new std::string(std::string(tmp && *tmp ? tmp : "/tmp") + "/causegate-fuzz.XXXXXX");
    if (mkdtemp(path->data()) == nullptr) std::abort();
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(ScratchDir(), ignored);
    });
    return path;
  }();
  return *dir;
}

}  // namespace causegate::fuzz
