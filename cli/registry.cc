#include <algorithm>
#include <utility>
#include <vector>

#include "cli/commands.h"

namespace causegate::cli {
namespace {

std::vector<std::pair<int, AddCommand>>& Commands() {
  static std::vector<std::pair<int, AddCommand>> commands;  // filled before main
  return commands;
}

}  // namespace

Registrar::Registrar(int order, AddCommand add) { Commands().emplace_back(order, std::move(add)); }

void AddAllCommands(CLI::App& app, Common& common) {
  auto& commands = Commands();
  std::stable_sort(commands.begin(), commands.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, add] : commands) add(app, common);
}

}  // namespace causegate::cli
