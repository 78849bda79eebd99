#include "cli/serve_options.h"

#include "cli/shared_options.h"

namespace causegate::cli {

CLI::App* AddServeSubcommand(CLI::App& app, ServeArgs* args) {
  auto* cmd = app.add_subcommand("serve", "Run the HTTP hook daemon: POST /hook, POST /v1/judge, GET /metrics");
  cmd->add_option("--listen", args->listen, "HOST:PORT to listen on (default 127.0.0.1:8787; port 0: any free port)");
  cmd->add_option("--config", args->config_file, "JSON config file (keys: server/API.md)")->check(CLI::ExistingFile);
  cmd->add_option("--rules", args->rules_dir,
                  "Extra rule packs (a pack file, or a folder of them), reloaded when a pack changes")
      ->check(CLI::ExistingPath);
  cmd->add_option("--audit-log", args->audit_log, "Append one JSON line per verdict to FILE (rotated)");
  cmd->add_flag("--log-text", args->log_text, "Include the prompt and final message in the audit log");
  cmd->add_option("--token-env", args->token_env,
                  "Environment variable holding the bearer token (default CAUSEGATE_TOKEN)");
  cmd->add_option("--root", args->roots,
                  "Folder transcripts may be read from (repeatable; default: the agents' session folders)");
  cmd->add_option("--threads", args->threads, "Workers always ready: requests answered at once (1 to 1024, default 16)")->type_name("N")->check(WholeNumber(1, 1024));
  cmd->add_option("--port-file", args->port_file, "Write HOST:PORT to FILE once listening");
  AddMaxBlocksOption(cmd, &args->max_blocks, "Blocks per turn before an unproven turn is let through");
  cmd->add_option("--agent", args->agent, "Hook protocol to speak on /hook (default auto)");
  cmd->add_option("--state-dir", args->state_dir,
                  "Folder of the per-session state (loop counters, Cursor and Copilot session logs); replicas "
                  "behind one load balancer share it (default $XDG_STATE_HOME/causegate)")
      ->type_name("DIR");
  return cmd;
}

}  // namespace causegate::cli
