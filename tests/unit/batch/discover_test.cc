#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "batch/discover.h"

namespace causegate::batch {
namespace {

namespace fs = std::filesystem;

// A temporary tree; the tests run from inside it so that relative paths
// and globs are resolved there, as on a user's command line.
class Tree {
 public:
  Tree() {
    std::string tmpl = (fs::temp_directory_path() / "causegate-discover-XXXXXX").string();
    root_ = mkdtemp(tmpl.data()) ? tmpl : "";
    old_ = fs::current_path();
    fs::current_path(root_);
  }
  ~Tree() {
    std::error_code ec;
    fs::current_path(old_, ec);
    fs::remove_all(root_, ec);
  }
  void File(const std::string& path) {
    fs::create_directories(fs::path(path).parent_path().empty() ? "." : fs::path(path).parent_path());
    std::ofstream(path) << "{}\n";
  }

 private:
  std::string root_;
  fs::path old_;
};

TEST_CASE("files, folders and globs", "[discover]") {
  Tree tree;
  for (const char* f : {"top.jsonl", "notes.txt", "a/one.jsonl", "a/two.jsonl", "a/b/three.jsonl", "a/b/skip.log",
                        "c/four.jsonl", ".hidden/five.jsonl", "a/.six.jsonl", "space dir/seven.jsonl"}) {
    tree.File(f);
  }
  fs::create_directory_symlink("../a", "c/loop");  // a link to a folder is not followed

  struct Case {
    const char* name;
    std::vector<std::string> args;
    std::vector<std::string> files;
    int errors;
  };
  const std::vector<Case> cases = {
      {"a file, any name", {"notes.txt"}, {"notes.txt"}, 0},
      {"a folder, recursively", {"a"}, {"a/.six.jsonl", "a/b/three.jsonl", "a/one.jsonl", "a/two.jsonl"}, 0},
      {"a folder with a slash", {"c/"}, {"c/four.jsonl"}, 0},
      {"star", {"*.jsonl"}, {"top.jsonl"}, 0},
      {"star in a folder", {"a/*.jsonl"}, {"a/one.jsonl", "a/two.jsonl"}, 0},
      {"star matches folders too", {"*/b"}, {"a/b/three.jsonl"}, 0},
      {"double star", {"**/*.jsonl"},
       {"a/b/three.jsonl", "a/one.jsonl", "a/two.jsonl", "c/four.jsonl", "space dir/seven.jsonl", "top.jsonl"}, 0},
      {"double star under a folder", {"a/**/t*.jsonl"}, {"a/b/three.jsonl", "a/two.jsonl"}, 0},
      {"leading dot must be written", {".*/*.jsonl"}, {".hidden/five.jsonl"}, 0},
      {"bracket and question mark", {"a/[ot]?o.jsonl"}, {"a/two.jsonl"}, 0},
      {"duplicates collapse", {"a/one.jsonl", "a/*.jsonl", "./a/one.jsonl"}, {"a/one.jsonl", "a/two.jsonl"}, 0},
      {"leading ./ dropped", {"./c"}, {"c/four.jsonl"}, 0},
      {"nothing matches", {"*.yaml"}, {}, 1},
      {"no such path", {"missing.jsonl", "top.jsonl"}, {"top.jsonl"}, 1},
      {"an empty argument", {""}, {}, 1},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Discovery found = DiscoverTranscripts(c.args);
    CHECK(found.files == c.files);
    CHECK(static_cast<int>(found.errors.size()) == c.errors);
  }
  const Discovery missing = DiscoverTranscripts({"nope/*.jsonl"});
  REQUIRE(missing.errors.size() == 1);
  CHECK(missing.errors[0] == "nope/*.jsonl: no file matches");
  CHECK(IsGlob("a/*.jsonl"));
  CHECK_FALSE(IsGlob("a/b.jsonl"));
}

}  // namespace
}  // namespace causegate::batch
