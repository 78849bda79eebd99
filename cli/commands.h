// Subcommands register themselves from their own files (cli/cmd_*.cc), so
// adding a command never touches main.cc:
//
//   namespace { const Registrar kRegister(20, [](CLI::App& app, Common& common) { ... }); }
//
// The order number fixes the order in --help. Callbacks set common.exit_code.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace causegate::cli {

struct Common {
  std::string rules_dir;  // --rules PATH: extra packs, a pack file or a folder of them
  std::string color = "auto";  // --color auto|always|never (cli/shared_options.h: UseColor)
  int exit_code = 0;
  std::vector<std::string> argv;  // the command line as given (for forwarding)
};

using AddCommand = std::function<void(CLI::App&, Common&)>;

class Registrar {
 public:
  Registrar(int order, AddCommand add);
};

// Adds every registered command to app, in order.
void AddAllCommands(CLI::App& app, Common& common);

}  // namespace causegate::cli
