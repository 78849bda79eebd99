#include "gate/state_cap.h"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace causegate::gate {
namespace {

namespace fs = std::filesystem;

struct StateFile {
  fs::path path;
  fs::file_time_type written;
  std::uint64_t bytes = 0;
};

void CollectFiles(const fs::path& dir, const char* extension, std::vector<StateFile>* out) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (it->path().extension() != extension || !it->is_regular_file(entry_ec)) continue;
    StateFile f;
    f.path = it->path();
    f.written = it->last_write_time(entry_ec);
    if (entry_ec) continue;
    f.bytes = it->file_size(entry_ec);
    if (!entry_ec) out->push_back(std::move(f));
  }
}

}  // namespace

std::size_t EvictOldestState(const std::string& state_dir, const std::string& keep, const StateCap& cap) {
  if (state_dir.empty()) return 0;
  std::vector<StateFile> files;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(state_dir) / "sessions", ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code dir_ec;
    if (it->is_directory(dir_ec)) CollectFiles(it->path(), ".jsonl", &files);
  }
  CollectFiles(fs::path(state_dir) / "loop", ".json", &files);

  std::uint64_t total = 0;
  for (const StateFile& f : files) total += f.bytes;
  if (total <= cap.max_bytes && files.size() <= cap.max_files) return 0;

  std::sort(files.begin(), files.end(), [](const StateFile& a, const StateFile& b) { return a.written < b.written; });
  std::size_t left = files.size();
  std::size_t deleted = 0;
  const fs::path kept(keep);
  for (const StateFile& f : files) {
    if (total <= cap.max_bytes && left <= cap.max_files) break;
    if (!keep.empty() && f.path == kept) continue;
    std::error_code rm_ec;
    if (fs::remove(f.path, rm_ec)) ++deleted;
    // Gone either way (deleted here or by another process): no longer counted.
    total -= f.bytes;
    --left;
  }
  return deleted;
}

}  // namespace causegate::gate
