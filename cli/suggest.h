// "did you mean": when the command line does not parse, the word that
// broke it (a command or an option no command on the line has) and the
// nearest name that exists, by edit distance, as git and cargo answer.
// Tests: tests/e2e/cli_manners.py.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace causegate::cli {

// Edit distance (insertions, deletions, substitutions, adjacent swaps).
std::size_t EditDistance(const std::string& a, const std::string& b);

// "causegate: unknown command \"chek\"; did you mean `check`?" or
// "causegate check: unknown option --formt; did you mean --format?" for the first unknown word of
// args (argv without the program), "" when every command and option on it
// exists (the error is then of another kind: CLI11's message says it).
std::string UnknownWordMessage(CLI::App& app, const std::vector<std::string>& args);

}  // namespace causegate::cli
