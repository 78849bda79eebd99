// Files compiled into the binary (cmake/Embed.cmake): the default rule packs
// (rules/packs/*.json) and the debug protocol text (rules/protocol/*.md), so
// causegate works with no installed data files.
#pragma once

#include <cstddef>
#include <string_view>

namespace causegate::rules {

struct EmbeddedFile {
  std::string_view name;      // file name without folder, e.g. "en.json"
  std::string_view contents;
};

namespace embedded {
extern const EmbeddedFile kFiles[];
extern const std::size_t kFileCount;
}  // namespace embedded

// The embedded file with this name, or nullptr.
const EmbeddedFile* FindEmbedded(std::string_view name);

}  // namespace causegate::rules
