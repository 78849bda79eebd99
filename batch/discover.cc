// Glob expansion walks the pattern one '/'-separated part at a time over a
// set of candidate paths: a literal part is appended (and kept if it
// exists), a glob part lists each candidate folder and keeps the names
// fnmatch accepts, "**" adds every folder below each candidate. The paths
// are built by string joining, never made absolute, so they stay the way
// the user wrote them (and hash to the same shard on every machine).
// std::filesystem is used only through its error_code overloads.
// Tests: tests/unit/batch/discover_test.cc.
#include "batch/discover.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace causegate::batch {
namespace {

namespace fs = std::filesystem;

std::string Join(const std::string& dir, const std::string& name) {
  if (dir.empty()) return name;
  if (dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

// "" stands for the current folder in joined paths.
fs::path AsFsPath(const std::string& dir) { return dir.empty() ? fs::path(".") : fs::path(dir); }

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(AsFsPath(path), ec);
}

bool Exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(AsFsPath(path), ec);
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Entries of one folder: name and whether it is a folder (not following
// links to folders).
struct Entry {
  std::string name;
  bool directory = false;
  bool regular_file = false;  // following links
};

bool ListDirectory(const std::string& dir, std::vector<Entry>* entries, std::vector<std::string>* errors) {
  std::error_code ec;
  fs::directory_iterator it(AsFsPath(dir), ec);
  if (ec) {
    errors->push_back((dir.empty() ? "." : dir) + ": cannot list: " + ec.message());
    return false;
  }
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) {
      errors->push_back((dir.empty() ? "." : dir) + ": cannot list: " + ec.message());
      return false;
    }
    Entry entry;
    entry.name = it->path().filename().string();
    std::error_code type_ec;
    entry.directory = it->is_directory(type_ec) && !it->is_symlink(type_ec);
    entry.regular_file = it->is_regular_file(type_ec);
    entries->push_back(std::move(entry));
  }
  return true;
}

void WalkFolder(const std::string& dir, std::vector<std::string>* files, std::vector<std::string>* errors) {
  std::vector<std::string> pending = {dir};
  while (!pending.empty()) {
    const std::string current = std::move(pending.back());
    pending.pop_back();
    std::vector<Entry> entries;
    if (!ListDirectory(current, &entries, errors)) continue;
    for (const Entry& entry : entries) {
      const std::string path = Join(current, entry.name);
      if (entry.directory) {
        pending.push_back(path);
      } else if (entry.regular_file && EndsWith(entry.name, ".jsonl")) {
        files->push_back(path);
      }
    }
  }
}

void AddFoldersBelow(const std::string& dir, std::vector<std::string>* out, std::vector<std::string>* errors) {
  std::vector<std::string> pending = {dir};
  while (!pending.empty()) {
    const std::string current = std::move(pending.back());
    pending.pop_back();
    out->push_back(current);
    std::vector<Entry> entries;
    if (!ListDirectory(current, &entries, errors)) continue;
    for (const Entry& entry : entries) {
      // As a shell's globstar: hidden folders only when named.
      if (entry.directory && entry.name.front() != '.') pending.push_back(Join(current, entry.name));
    }
  }
}

std::vector<std::string> SplitParts(const std::string& pattern) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= pattern.size()) {
    std::size_t slash = pattern.find('/', start);
    if (slash == std::string::npos) slash = pattern.size();
    if (slash > start) parts.push_back(pattern.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

std::vector<std::string> ExpandGlob(const std::string& pattern, std::vector<std::string>* errors) {
  std::vector<std::string> candidates = {pattern.front() == '/' ? "/" : ""};
  for (const std::string& part : SplitParts(pattern)) {
    std::vector<std::string> next;
    if (part == "**") {
      for (const std::string& dir : candidates) {
        if (dir.empty() || IsDirectory(dir)) AddFoldersBelow(dir, &next, errors);
      }
    } else if (IsGlob(part)) {
      for (const std::string& dir : candidates) {
        if (!dir.empty() && !IsDirectory(dir)) continue;
        std::vector<Entry> entries;
        if (!ListDirectory(dir, &entries, errors)) continue;
        for (const Entry& entry : entries) {
          if (fnmatch(part.c_str(), entry.name.c_str(), FNM_PERIOD) == 0) next.push_back(Join(dir, entry.name));
        }
      }
    } else {
      for (const std::string& dir : candidates) {
        const std::string path = Join(dir, part);
        if (Exists(path)) next.push_back(path);
      }
    }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    candidates = std::move(next);
    if (candidates.empty()) break;
  }
  return candidates;
}

}  // namespace

bool IsGlob(std::string_view text) { return text.find_first_of("*?[") != std::string_view::npos; }

Discovery DiscoverTranscripts(const std::vector<std::string>& paths) {
  Discovery out;
  for (const std::string& arg : paths) {
    if (arg.empty()) {
      out.errors.push_back("\"\": empty path");
      continue;
    }
    std::vector<std::string> matches;
    if (IsGlob(arg) && !Exists(arg)) {
      matches = ExpandGlob(arg, &out.errors);
      if (matches.empty()) {
        out.errors.push_back(arg + ": no file matches");
        continue;
      }
    } else if (Exists(arg)) {
      matches.push_back(arg);
    } else {
      out.errors.push_back(arg + ": no such file or folder");
      continue;
    }
    for (const std::string& match : matches) {
      if (IsDirectory(match)) {
        WalkFolder(match, &out.files, &out.errors);
      } else {
        // Any other kind of file is handed on: the reader says what is wrong.
        out.files.push_back(match);
      }
    }
  }
  for (std::string& file : out.files) {
    // "./a.jsonl" and "a.jsonl" are one file, and one shard key.
    while (file.size() > 2 && file.compare(0, 2, "./") == 0) file.erase(0, 2);
  }
  std::sort(out.files.begin(), out.files.end());
  out.files.erase(std::unique(out.files.begin(), out.files.end()), out.files.end());
  return out;
}

}  // namespace causegate::batch
