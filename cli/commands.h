// Each subcommand registers itself on the CLI11 app from its own file;
// main.cc only wires them together. Callbacks set *exit_code.
#pragma once

#include <CLI/CLI.hpp>

namespace causegate::cli {

struct Common {
  std::string rules_dir;  // --rules DIR: extra packs
  int exit_code = 0;
};

void AddHookCommand(CLI::App& app, Common& common);
void AddExplainCommand(CLI::App& app, Common& common);
void AddEvalCommand(CLI::App& app, Common& common);
void AddRulesCommand(CLI::App& app, Common& common);

}  // namespace causegate::cli
