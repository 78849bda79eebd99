// Which files `causegate check PATH...` reads. Each PATH is a file (read
// whatever its name), a folder (every *.jsonl below it, recursively;
// symbolic links to files are followed, links to folders are not, so a
// loop cannot trap the walk), or a glob. Globs are expanded here, not by
// the shell, so quoting them works everywhere (CI YAML, Windows runners):
// each '/'-separated part is matched with fnmatch(3) and FNM_PERIOD (a
// leading dot must be written), and a part that is exactly "**" matches
// any number of folders (none included; hidden ones only when named). A
// glob that names a folder reads the folder. Paths come back as written
// (relative stays relative) less a leading "./", sorted and without
// duplicates, which keeps reports and shards stable.
// Tests: tests/unit/batch/discover_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace causegate::batch {

struct Discovery {
  std::vector<std::string> files;   // sorted, unique
  // "PATH: what" for each argument that names nothing (no such file, a
  // glob that matches nothing) and each folder that cannot be listed.
  std::vector<std::string> errors;
};

Discovery DiscoverTranscripts(const std::vector<std::string>& paths);

// True when text has glob characters (* ? [).
bool IsGlob(std::string_view text);

}  // namespace causegate::batch
