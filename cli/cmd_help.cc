// `causegate help [COMMAND...]`: the --help text of a command (or of the
// program), so `causegate help init` and `causegate init --help` agree.
#include <cstdio>

#include "cli/commands.h"

namespace causegate::cli {
namespace {

void AddHelpCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("help", "Show the help of a command: causegate help COMMAND [SUBCOMMAND]");
  auto words = std::make_shared<std::vector<std::string>>();
  cmd->add_option("command", *words, "Command (and subcommand) to describe");
  cmd->callback([&app, &common, words] {
    const CLI::App* target = &app;
    std::string name = app.get_name();  // "causegate rules lint", as --help shows it
    for (const std::string& word : *words) {
      const CLI::App* next = nullptr;
      for (const CLI::App* sub : target->get_subcommands({})) {
        if (sub->get_name() == word) next = sub;
      }
      if (next == nullptr) {
        std::fprintf(stderr, "causegate help: no command \"%s\"; `causegate --help` lists them\n", word.c_str());
        common.exit_code = 2;
        return;
      }
      target = next;
      name += " " + word;
    }
    // The formatter directly: App::help() would describe the running `help`.
    std::fputs(target->get_formatter()->make_help(target, name, CLI::AppFormatMode::Normal).c_str(), stdout);
  });
}

const Registrar kRegister(90, AddHelpCommand);

}  // namespace

}  // namespace causegate::cli
