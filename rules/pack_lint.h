// `rules lint`: every problem of a user's packs in one run, the ones the
// hook and the daemon would refuse at load and the ones that make a pack
// hard to keep right: a rule without examples, a pattern that does not
// compile on its own or compiles to far more RE2 instructions than its
// length, a description that is not one line.
// Tests: tests/unit/rules/pack_lint_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "evidence/status.h"
#include "rules/pack.h"
#include "rules/rule_set.h"

namespace causegate::rules {

// The longest rule description lint passes, in characters: one line of
// `rules list`. The rest belongs in "note".
inline constexpr std::size_t kMaxDescriptionChars = 160;

struct LintReport {
  std::size_t packs = 0;              // pack files read
  std::size_t rules = 0;              // items of their "rules" arrays, good or not
  std::vector<PackProblem> problems;  // file by file, each file's by line
};

// Lints the packs at path (PackFiles: a pack file or a folder of them), or
// the built-in packs when path is "". Finds what loading refuses (ReadPack;
// JoinPacks with the built-in packs, so an id a built-in rule has is a
// problem naming both places; compiling them all together) and, beyond it,
// a rule without "match" or "no_match" examples, a pattern that does not
// compile on its own within options' budget, a pattern whose RE2 program
// is over 500 instructions and over 2.5 per byte of it, and a description
// that is not one line of at most kMaxDescriptionChars characters. An error only
// when there is nothing to lint: path is neither a file nor a folder.
Status LintPacks(const std::string& path, const CompileOptions& options, LintReport* report);

}  // namespace causegate::rules
