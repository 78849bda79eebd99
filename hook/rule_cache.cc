#include "hook/rule_cache.h"

#include <dirent.h>
#include <sys/stat.h>

#include <spdlog/spdlog.h>

#include <algorithm>

namespace causegate::hook {
namespace {

std::string StatText(const std::string& path, struct stat* st) {
  if (::stat(path.c_str(), st) != 0) return "-";
  return std::to_string(static_cast<unsigned long long>(st->st_dev)) + ":" +
         std::to_string(static_cast<unsigned long long>(st->st_ino)) + ":" +
         std::to_string(static_cast<long long>(st->st_size)) + ":" +
         std::to_string(static_cast<long long>(st->st_mtim.tv_sec)) + "." +
         std::to_string(static_cast<long long>(st->st_mtim.tv_nsec));
}

}  // namespace

void CachedRules::Replay() const {
  for (const auto& [level, line] : logs) {
    if (level == Level::kError) {
      spdlog::error("{}", line);
    } else {
      spdlog::warn("{}", line);
    }
  }
}

std::shared_ptr<const CachedRules> RuleCache::Get(const std::string& key, const std::function<CachedRules()>& make) {
  std::lock_guard<std::mutex> lock(mu_);
  if (const auto it = entries_.find(key); it != entries_.end()) return it->second;
  auto entry = std::make_shared<const CachedRules>(make());
  if (entries_.size() >= capacity_ && !order_.empty()) {
    entries_.erase(order_.front());
    order_.pop_front();
  }
  entries_.emplace(key, entry);
  order_.push_back(key);
  return entry;
}

std::string PathSignature(const std::string& path) {
  struct stat st {};
  std::string text = path + "=" + StatText(path, &st);
  if (text.back() == '-' || !S_ISDIR(st.st_mode)) return text;
  std::vector<std::string> names;
  if (DIR* dir = ::opendir(path.c_str()); dir != nullptr) {
    while (const dirent* e = ::readdir(dir)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    ::closedir(dir);
  }
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    struct stat entry {};
    text += ";" + name + "=" + StatText(path + "/" + name, &entry);
  }
  return text;
}

}  // namespace causegate::hook
