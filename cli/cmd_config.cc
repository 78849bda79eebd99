// `causegate config show`: the merged config for the current folder (or
// --cwd), each key with the file it came from (README.md, "Configuration").
// Exit 0, or 2 when a config file has a problem: the hook ignores such a
// file, and this is where a user finds out why.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "gate/user_config_files.h"

namespace causegate::cli {
namespace {

int ShowConfig(const std::string& cwd) {
  const gate::LoadedConfig loaded = gate::LoadUserConfig(cwd);
  const std::string user = gate::UserConfigPath();
  const std::string project = gate::ProjectConfigPath(cwd);
  std::fprintf(stderr, "causegate config: user file %s, project file %s\n",
               user.empty() ? "(none: no HOME)" : user.c_str(), project.empty() ? "(none)" : project.c_str());
  for (const std::string& error : loaded.errors) std::fprintf(stderr, "causegate config: ignored: %s\n", error.c_str());
  const std::string shown = gate::RenderMergedConfig(gate::MergeConfig(loaded.files));
  std::fwrite(shown.data(), 1, shown.size(), stdout);
  return loaded.errors.empty() ? 0 : 2;
}

void AddConfigCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("config", "The user's config files: show the merged result");
  cmd->require_subcommand(1);
  auto* show = cmd->add_subcommand("show", "Print the merged config (JSON), each value with the file it came from");
  auto cwd = std::make_shared<std::string>();
  show->add_option("--cwd", *cwd, "Folder whose project file (.causegate.json) applies (default: the current one)");
  show->callback([&common, cwd] {
    std::error_code ec;
    common.exit_code = ShowConfig(cwd->empty() ? std::filesystem::current_path(ec).string() : *cwd);
  });
}

const Registrar kRegister(58, AddConfigCommand);

}  // namespace

}  // namespace causegate::cli
