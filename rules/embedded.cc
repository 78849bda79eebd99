#include "rules/embedded.h"

namespace causegate::rules {

const EmbeddedFile* FindEmbedded(std::string_view name) {
  for (std::size_t i = 0; i < embedded::kFileCount; ++i) {
    if (embedded::kFiles[i].name == name) return &embedded::kFiles[i];
  }
  return nullptr;
}

}  // namespace causegate::rules
