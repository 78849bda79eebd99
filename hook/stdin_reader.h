// Reading the hook input from a stream without trusting its size: at most
// limit bytes are kept; more is an error, never an unbounded allocation.
#pragma once

#include <cstdio>
#include <string>

#include "evidence/status.h"

namespace causegate::hook {

// Reads f to EOF into *out. Error when more than limit bytes arrive (the
// rest is left unread) or on a read error.
Status ReadBounded(std::FILE* f, std::size_t limit, std::string* out);

}  // namespace causegate::hook
