// Lint reads each file with ReadPack (which goes on past a problem), adds
// its own checks rule by rule, then joins the packs with the built-in ones
// exactly as LoadPacks does, so that lint passing means the hook loads the
// same packs. Compiling everything together comes last and only when
// nothing else is wrong: its one error would hide behind the others.
#include "rules/pack_lint.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "rules/embedded.h"

namespace causegate::rules {
namespace {

struct Source {
  std::string file;
  std::string text;
};

std::size_t CountChars(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool HasControl(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7F;
  });
}

// What is wrong with a rule's description, or "".
std::string DescriptionProblem(std::string_view text) {
  if (text.find_first_not_of(" \t") == std::string_view::npos) {
    return "description: empty (leave the field out instead)";
  }
  if (HasControl(text)) return "description: must be one line, without line breaks or control characters";
  const std::size_t chars = CountChars(text);
  if (chars > kMaxDescriptionChars) {
    return "description: " + std::to_string(chars) + " characters, more than " +
           std::to_string(kMaxDescriptionChars) + " (one line of rules list; put the rest in \"note\")";
  }
  return "";
}

// A pattern that compiles to more RE2 instructions than this, and to more
// than kCostlyProgramPerByte per byte of its text, builds some part of
// itself many times over: a counted repetition of a negated class
// ([^.]{0,40} is forty copies of a class of many UTF-8 sequences) or a
// Unicode property class ([^\pL\pN] spans hundreds of ranges). A hook
// call compiles a rule each time a text holds its words, so such a rule
// cost 3 to 12 M instructions where its *? form cost under 2.6 M
// (rules/QUALITY_HISTORY.md, the ninth session). Word lists, however long,
// stay near one instruction per byte; the built-in packs' largest ratio is
// 1.95, and the margin above it leaves room for another RE2 release.
constexpr int kCostlyProgram = 500;
constexpr double kCostlyProgramPerByte = 2.5;

// What is costly about a pattern that compiles to size RE2 instructions,
// or "".
std::string CostProblem(const std::string& pattern, int size) {
  if (size <= kCostlyProgram || size <= kCostlyProgramPerByte * static_cast<double>(pattern.size())) return "";
  return "pattern: compiles to " + std::to_string(size) + " RE2 instructions for " + std::to_string(pattern.size()) +
         " bytes: a counted repetition of a negated class ([^.]{0,40}) or a Unicode class (\\pL) is built once per "
         "copy; use *? or an ASCII class (rules/FORMAT.md, Writing patterns)";
}

// The rule's own checks that loading does not make.
void LintRule(const PackReading& reading, std::size_t k, const CompileOptions& options,
              std::vector<PackProblem>* problems) {
  const Rule& r = reading.pack.rules[k];
  const std::size_t entry = reading.entry_of[k];
  auto at = [&](std::string_view field) {
    TextPosition p = reading.RuleField(entry, field);
    if (p.line == 0) p = {r.line, r.column};
    return p;
  };
  auto add = [&](TextPosition p, std::string what) {
    problems->push_back({r.file, p.line, p.column, r.id, std::move(what)});
  };
  // Where loading says it too (RuleSet::Compile).
  int program_size = 0;
  if (const std::string error = PatternError(r.pattern, options, &program_size); !error.empty()) {
    add(PatternPosition(r), "pattern: " + error);
  } else if (const std::string cost = CostProblem(r.pattern, program_size); !cost.empty()) {
    add(PatternPosition(r), cost);
  }
  // Where the examples would go: the id's line, as before there was a column.
  if (r.must_match.empty()) add(at("match"), "no \"match\" examples");
  if (r.must_not_match.empty()) add(at("no_match"), "no \"no_match\" examples");
  const bool described = reading.RuleField(entry, "description").line > 0 || !r.description.empty();
  if (!described) return;
  if (const std::string what = DescriptionProblem(r.description); !what.empty()) add(at("description"), what);
}

}  // namespace

Status LintPacks(const std::string& path, const CompileOptions& options, LintReport* report) {
  *report = LintReport();
  std::vector<Source> sources;
  // Problems with the index of the source they belong to, for the order.
  std::vector<std::pair<std::size_t, PackProblem>> found;
  if (path.empty()) {
    for (std::size_t i = 0; i < embedded::kFileCount; ++i) {
      const EmbeddedFile& f = embedded::kFiles[i];
      if (f.name.size() < 5 || f.name.substr(f.name.size() - 5) != ".json") continue;
      sources.push_back({std::string(kBuiltinPrefix) + std::string(f.name), std::string(f.contents)});
    }
  } else {
    std::vector<std::string> files;
    if (Status s = PackFiles(path, &files); !s.ok()) return s;
    for (const std::string& file : files) {
      Source source{file, ""};
      if (Status s = ReadPackText(file, &source.text); !s.ok()) {
        found.push_back({sources.size(), PackProblem{"", 0, 0, "", s.message()}});
      }
      sources.push_back(std::move(source));
    }
  }
  report->packs = sources.size();
  std::unordered_map<std::string, std::size_t> source_of;
  std::vector<Pack> user;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    source_of[sources[i].file] = i;
    if (std::any_of(found.begin(), found.end(), [&](const auto& p) { return p.first == i; })) continue;
    PackReading reading = ReadPack(sources[i].text, sources[i].file, PackCheck::kFull);
    report->rules += reading.entries;
    std::vector<PackProblem> problems = std::move(reading.problems);
    for (std::size_t k = 0; k < reading.pack.rules.size(); ++k) LintRule(reading, k, options, &problems);
    if (!reading.pack.description.empty() && HasControl(reading.pack.description)) {
      const TextPosition at = reading.positions ? reading.positions->Find("/description") : TextPosition{};
      problems.push_back({sources[i].file, at.line, at.column, "",
                          "description: must be one line, without line breaks or control characters"});
    }
    for (PackProblem& p : problems) found.push_back({i, std::move(p)});
    if (!reading.pack.name.empty()) user.push_back(std::move(reading.pack));
  }
  std::vector<Pack> packs = path.empty() ? std::vector<Pack>() : DefaultPacks();
  for (PackProblem& p : JoinPacks(std::move(user), &packs)) {
    const auto it = source_of.find(p.file);
    found.push_back({it == source_of.end() ? sources.size() : it->second, std::move(p)});
  }
  if (found.empty()) {
    std::shared_ptr<const RuleSet> all;
    if (Status s = RuleSet::Compile(std::move(packs), options, &all); !s.ok()) {
      found.push_back({sources.size(), PackProblem{"", 0, 0, "", s.message()}});
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(a.first, a.second.line, a.second.column) <
           std::make_tuple(b.first, b.second.line, b.second.column);
  });
  for (auto& [source, problem] : found) report->problems.push_back(std::move(problem));
  return Status::Ok();
}

}  // namespace causegate::rules
