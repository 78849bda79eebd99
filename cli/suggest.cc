#include "cli/suggest.h"

#include <algorithm>

namespace causegate::cli {
namespace {

// The nearest of names to word, "" when none is near enough to be a typo:
// at most a third of the word's letters off (and at least one), or word a
// prefix of a single name.
std::string Nearest(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, word.size() / 3) + 1;
  for (const std::string& name : names) {
    const std::size_t d = EditDistance(word, name);
    if (d < best_distance) {
      best = name;
      best_distance = d;
    }
  }
  if (!best.empty()) return best;
  std::vector<std::string> prefixed;
  for (const std::string& name : names) {
    if (word.size() >= 2 && name.rfind(word, 0) == 0) prefixed.push_back(name);
  }
  return prefixed.size() == 1 ? prefixed.front() : "";
}

std::vector<CLI::App*> Subcommands(CLI::App* app) {
  return app->get_subcommands([](CLI::App*) { return true; });
}

// The option called name on app or, as fallthrough allows, its parents.
const CLI::Option* FindOption(CLI::App* app, const std::string& name) {
  for (CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* opt : a->get_options()) {
      if (opt->check_name(name)) return opt;
    }
  }
  return nullptr;
}

std::vector<std::string> OptionNames(CLI::App* app) {
  std::vector<std::string> names;
  for (CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* opt : a->get_options()) {
      for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
      for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
    }
  }
  return names;
}

std::string Path(CLI::App* app) {
  std::string out;
  for (CLI::App* a = app; a != nullptr && a->get_parent() != nullptr; a = a->get_parent()) {
    out = a->get_name() + (out.empty() ? "" : " " + out);
  }
  return out;
}

}  // namespace

std::size_t EditDistance(const std::string& a, const std::string& b) {
  // Optimal string alignment distance, two rows plus the one before.
  std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(row);
  }
  return prev[b.size()];
}

std::string UnknownWordMessage(CLI::App& app, const std::vector<std::string>& args) {
  CLI::App* at = &app;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.size() > 1 && arg[0] == '-') {
      std::string name = arg.substr(0, arg.find('='));
      if (name.size() > 2 && name[1] != '-') name = name.substr(0, 2);  // -j4
      const CLI::Option* opt = FindOption(at, name);
      if (opt == nullptr) {
        const std::string where = Path(at);
        std::string out = "causegate" + (where.empty() ? "" : " " + where) + ": unknown option " + name;
        const std::string near = Nearest(name, OptionNames(at));
        return near.empty() ? out + " (see --help)" : out + "; did you mean " + near + "?";
      }
      if (arg.find('=') == std::string::npos && opt->get_type_size() > 0 && name.size() == arg.size()) ++i;
      continue;
    }
    const std::vector<CLI::App*> subs = Subcommands(at);
    auto sub = std::find_if(subs.begin(), subs.end(), [&](CLI::App* s) { return s->check_name(arg); });
    if (sub != subs.end()) {
      at = *sub;
      continue;
    }
    // A positional argument, when this command takes any.
    const std::vector<CLI::Option*> options = at->get_options();
    const bool positionals =
        std::any_of(options.begin(), options.end(), [](const CLI::Option* o) { return o->get_positional(); });
    if (positionals || subs.empty()) continue;
    std::vector<std::string> names;
    for (CLI::App* s : subs) names.push_back(s->get_name());
    const std::string where = Path(at);
    std::string out = "causegate" + (where.empty() ? "" : " " + where) + ": unknown command \"" + arg + "\"";
    const std::string near = Nearest(arg, names);
    if (!near.empty()) return out + "; did you mean `" + (where.empty() ? "" : where + " ") + near + "`?";
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    return out + " (commands: " + list + ")";
  }
  return "";
}

}  // namespace causegate::cli
