// `causegate serve`: the HTTP daemon (server/serve.h; routes and config
// keys in server/API.md). Flags override the config file, which overrides
// the defaults. There is deliberately no --token flag: argv is readable by
// every user of the machine, so the token comes from the config file, a
// token file or an environment variable.
#include <cstdio>

#include "cli/commands.h"
#include "server/serve.h"

namespace causegate::cli {
namespace {

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
};

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
  return Status::Ok();
}

void AddServeCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("serve", "Run the HTTP hook daemon: POST /hook, POST /v1/judge, GET /metrics");
  auto args = std::make_shared<ServeArgs>();
  cmd->add_option("--listen", args->listen, "HOST:PORT to listen on (default 127.0.0.1:8787; port 0: any free port)");
  cmd->add_option("--config", args->config_file, "JSON config file (keys: server/API.md)")->check(CLI::ExistingFile);
  cmd->add_option("--rules", args->rules_dir, "Folder of extra rule packs, reloaded when a pack changes")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--audit-log", args->audit_log, "Append one JSON line per verdict to FILE (rotated)");
  cmd->add_flag("--log-text", args->log_text, "Include the prompt and final message in the audit log");
  cmd->add_option("--token-env", args->token_env,
                  "Environment variable holding the bearer token (default CAUSEGATE_TOKEN)");
  cmd->add_option("--root", args->roots,
                  "Folder transcripts may be read from (repeatable; default: the agents' session folders)");
  cmd->add_option("--threads", args->threads, "Connections served at once (default 16)")->check(CLI::Range(1, 1024));
  cmd->add_option("--port-file", args->port_file, "Write HOST:PORT to FILE once listening");
  cmd->add_option("--max-blocks", args->max_blocks, "Blocks per turn before an unproven turn is let through")
      ->check(CLI::Range(0, 100));
  cmd->add_option("--agent", args->agent, "Hook protocol to speak on /hook (default auto)");
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
