// causegate: a Stop-hook gate that blocks unproven causal claims.
// Subcommands live in cli/cmd_*.cc; this file wires them and the logger.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <exception>

#include "cli/commands.h"
#include "cli/suggest.h"

namespace {

// stdout belongs to the agent's JSON: every log line goes to stderr.
void SetUpLogging() {
  auto logger = spdlog::stderr_logger_st("causegate");
  logger->set_pattern("causegate: %v");
  spdlog::set_default_logger(logger);
  const char* level = std::getenv("CAUSEGATE_LOG");
  spdlog::set_level(level ? spdlog::level::from_str(level) : spdlog::level::info);
}

// True when the command line runs `hook`: its first word that is not an
// option or the value of --rules or --color.
bool InvokesHook(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--rules" || arg == "--color") {
      ++i;
    } else if (arg.empty() || arg[0] != '-') {
      return arg == "hook";
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    SetUpLogging();
    CLI::App app{"causegate: blocks an AI agent's stop when it asserts a cause without cited tool output"};
    app.set_version_flag("--version", std::string("causegate ") + CAUSEGATE_VERSION);
    app.require_subcommand(1);
    // Options of the whole program (--rules, --color) also after the
    // command: a subcommand hands what it does not know to its parent.
    app.fallthrough();
    causegate::cli::Common common;
    common.argv.assign(argv, argv + argc);
    app.add_option("--rules", common.rules_dir, "Extra rule packs: a pack file, or a folder of them (*.json)")
        ->check(CLI::ExistingPath);
    app.add_option("--color", common.color,
                   "Colour in what people read: auto (a terminal, unless NO_COLOR or TERM=dumb), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}));
    causegate::cli::AddAllCommands(app, common);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      // A word no command or option has gets the nearest that exists.
      const std::string unknown =
          e.get_exit_code() == 0 ? "" : causegate::cli::UnknownWordMessage(app, {argv + 1, argv + argc});
      int code = 0;
      if (!unknown.empty()) {
        std::fprintf(stderr, "%s\n", unknown.c_str());
        code = 2;
      } else {
        code = app.exit(e);
      }
      // For Claude Code, exit 2 from a hook means "block": a mistyped hook
      // registration (`causegate --rules gone.json hook` too) must fail
      // open instead.
      if (InvokesHook(argc, argv)) return 0;
      return code == 0 ? 0 : 2;
    }
    return common.exit_code;
  } catch (const std::exception& e) {
    // Last resort: nothing should reach here, and nothing goes to stdout.
    std::fprintf(stderr, "causegate: internal error: %s\n", e.what());
    return 0;
  }
}
