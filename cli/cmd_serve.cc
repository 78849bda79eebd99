// `serve` in causegate-serve: the HTTP daemon (server/serve.h; routes and
// config keys in server/API.md). Flags override the config file, which overrides
// the defaults. There is deliberately no --token flag: argv is readable by
// every user of the machine, so the token comes from the config file, a
// token file or an environment variable.
#include <cstdio>

#include "cli/commands.h"
#include "cli/serve_options.h"
#include "server/serve.h"

namespace causegate::cli {
namespace {

// The config the daemon runs with: defaults, then the file, then flags.
Status BuildConfig(const CLI::App& cmd, const ServeArgs& args, const Common& common, server::ServerConfig* config) {
  if (!args.config_file.empty()) {
    if (Status s = server::LoadServerConfig(args.config_file, config); !s.ok()) return s;
  }
  auto given = [&cmd](const char* flag) { return cmd.get_option(flag)->count() > 0; };
  if (given("--listen")) {
    if (Status s = server::ParseListen(args.listen, &config->host, &config->port); !s.ok()) return s;
  }
  if (given("--rules")) {
    config->rules_dir = args.rules_dir;
  } else if (!common.rules_dir.empty()) {
    config->rules_dir = common.rules_dir;  // `causegate --rules DIR serve`
  }
  if (given("--audit-log")) config->audit_log = args.audit_log;
  if (given("--log-text")) config->log_text = true;
  if (given("--token-env")) config->token_env = args.token_env;
  if (given("--root")) config->roots = args.roots;
  if (given("--threads")) config->threads = args.threads;
  if (given("--port-file")) config->port_file = args.port_file;
  if (given("--max-blocks")) config->max_blocks = args.max_blocks;
  if (given("--agent")) config->agent = args.agent;
  if (given("--state-dir")) config->state_dir = args.state_dir;
  return Status::Ok();
}

void AddServeCommand(CLI::App& app, Common& common) {
  auto args = std::make_shared<ServeArgs>();
  auto* cmd = AddServeSubcommand(app, args.get());
  cmd->callback([cmd, &common, args] {
    server::ServerConfig config;
    Status s = BuildConfig(*cmd, *args, common, &config);
    if (s.ok()) s = server::Serve(config);
    if (!s.ok()) {
      std::fprintf(stderr, "causegate: serve: %s\n", s.message().c_str());
      common.exit_code = 1;
    }
  });
}

const Registrar kRegister(20, AddServeCommand);

}  // namespace

}  // namespace causegate::cli
