// `causegate init --resident`: the "resident" key of the user's config file
// (README.md, "Configuration") set or removed, every other byte of the
// file kept. Tests: tests/e2e/resident_gate.py.
#pragma once

#include <string>

#include "evidence/status.h"

namespace causegate::install {

enum class ResidentEdit { kOn, kRemove };

// The file's text after the edit (*after == before when nothing changes).
// before: the file's text ("" with exists false for no file). Errors:
// "path: line L, column C: what" or "path: not a JSON object" (nothing is
// written).
Status EditResidentKey(const std::string& path, const std::string& before, bool exists, ResidentEdit edit,
                       std::string* after);

}  // namespace causegate::install
