// `causegate serve` runs the daemon binary installed beside this one,
// causegate-serve, with the same command line: the daemon links the HTTP
// library, and this binary, which runs at every agent stop, does not
// (cli/serve_options.h says why). The flags are declared here too, so
// `causegate serve --help` and bad flags answer without the second binary.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "cli/commands.h"
#include "cli/serve_options.h"

namespace causegate::cli {
namespace {

// causegate-serve in the folder of the running executable.
std::string DaemonBinary() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "causegate-serve";  // no /proc: let execvp search PATH
  return (self.parent_path() / "causegate-serve").string();
}

void AddServeForward(CLI::App& app, Common& common) {
  auto args = std::make_shared<ServeArgs>();
  // The callback owns args: CLI11 writes the parsed flags through pointers
  // into it, after this function has returned (found by ASan).
  AddServeSubcommand(app, args.get())->callback([&common, args] {
    const std::string binary = DaemonBinary();
    std::vector<std::string> argv = common.argv;
    argv.at(0) = binary;
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    std::fflush(nullptr);
    ::execvp(raw[0], raw.data());
    std::fprintf(stderr, "causegate: serve: cannot run %s: %s (the daemon is the causegate-serve binary, "
                 "installed beside causegate)\n", binary.c_str(), std::strerror(errno));
    common.exit_code = 1;
  });
}

const Registrar kRegister(20, AddServeForward);

}  // namespace
}  // namespace causegate::cli
