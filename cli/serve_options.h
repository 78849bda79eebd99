// The flags of `causegate serve`, declared once for both binaries that
// know the command: causegate-serve runs the daemon; causegate forwards
// `causegate serve ...` to it (cli/cmd_serve_forward.cc) so that the hook,
// which runs at every stop, never loads the HTTP library and its OpenSSL
// start-up (measured: two thirds of the process's start-up instructions).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace causegate::cli {

struct ServeArgs {
  std::string listen;
  std::string config_file;
  std::string rules_dir;
  std::string audit_log;
  bool log_text = false;
  std::string token_env;
  std::vector<std::string> roots;
  int threads = 0;
  std::string port_file;
  int max_blocks = 2;
  std::string agent;
  std::string state_dir;
};

// Adds the `serve` subcommand with its flags bound to *args.
CLI::App* AddServeSubcommand(CLI::App& app, ServeArgs* args);

}  // namespace causegate::cli
