// The required literals of the built-in packs' patterns, read at build
// time: rules/literal_table/ reads every pattern of rules/packs/*.json with
// LiteralFilter::Formula and writes the table this looks in, so a hook call
// replays each built-in pattern's formula (LiteralFilter::AddFormula)
// instead of reading its syntax. Keyed by the pattern's text, so any
// pack's pattern that is a built-in one's, byte for byte, is found too.
// Tests: tests/unit/rules/literal_table_test.cc.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace causegate::rules {

// LiteralFilter::Formula(pattern) when pattern is in the table, else
// nullopt. The view points into the binary's constant data. Thread-safe.
std::optional<std::string_view> BuiltinFormula(std::string_view pattern);

// One row of the generated table.
struct PatternFormula {
  std::string_view pattern;
  std::string_view formula;
};

namespace literal_table {
// Sorted by pattern (bytes compared unsigned, as std::string_view does),
// each pattern once. Written by rules/literal_table/ into the build folder.
extern const PatternFormula kRows[];
extern const std::size_t kRowCount;
}  // namespace literal_table

}  // namespace causegate::rules
