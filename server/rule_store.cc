#include "server/rule_store.h"

#include <algorithm>
#include <filesystem>
#include <vector>

namespace causegate::server {

RuleStore::RuleStore(std::string dir) : dir_(std::move(dir)) {}

Status RuleStore::Reload() {
  std::lock_guard<std::mutex> reload_lock(reload_mu_);
  std::shared_ptr<const rules::RuleSet> fresh;
  if (Status s = rules::LoadRuleSet(dir_, &fresh); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(current_mu_);
  current_.swap(fresh);
  // The old set is freed when fresh goes out of scope here, or by the last
  // request still judging with it.
  return Status::Ok();
}

std::shared_ptr<const rules::RuleSet> RuleStore::Current() const {
  std::lock_guard<std::mutex> lock(current_mu_);
  return current_;
}

std::string PackFolderSignature(const std::string& dir) {
  if (dir.empty()) return "";
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> entries;
  if (fs::is_regular_file(dir, ec)) {  // --rules names one pack file
    std::error_code size_ec, time_ec;
    const auto size = fs::file_size(dir, size_ec);
    const auto mtime = fs::last_write_time(dir, time_ec).time_since_epoch().count();
    if (size_ec || time_ec) return "";
    return fs::path(dir).filename().string() + "|" + std::to_string(size) + "|" + std::to_string(mtime) + "\n";
  }
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".json") continue;
    std::error_code file_ec;
    const auto size = fs::file_size(p, file_ec);
    const auto mtime = fs::last_write_time(p, file_ec).time_since_epoch().count();
    entries.push_back(p.filename().string() + "|" + std::to_string(file_ec ? 0 : size) + "|" +
                      std::to_string(file_ec ? 0 : mtime));
  }
  if (ec) return "";
  std::sort(entries.begin(), entries.end());
  std::string signature;
  for (const std::string& e : entries) signature += e + "\n";
  return signature;
}

}  // namespace causegate::server
