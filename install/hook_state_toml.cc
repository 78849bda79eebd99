// Edits of Codex's [hooks.state."K"] tables as byte splices over the items
// of install/toml_scan.h. A table's block is its header and the items up to
// the next header; removing it takes the header through its last key and
// the blank lines after it (and, at the end of the file, the blank lines
// before it, which is what the append put there), so install followed by
// uninstall leaves the file as it was. Codex refuses a config.toml that
// defines a key twice ("duplicate key", measured with 0.171), so a key
// written in any other form is an error here, never a second definition.
// Tests: tests/unit/install/hook_state_toml_test.cc.
#include "install/hook_state_toml.h"

#include <algorithm>
#include <map>
#include <optional>

#include "install/toml_scan.h"

namespace causegate::install {
namespace {

using Kind = TomlItem::Kind;

std::vector<std::string> StatePath(const std::string& key) { return {"hooks", "state", key}; }

bool StartsWith(const std::vector<std::string>& path, const std::vector<std::string>& prefix) {
  return path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

bool IsBlank(std::string_view text, const TomlItem& item) {
  return item.kind == Kind::kTrivia &&
         text.substr(item.begin, item.end - item.begin).find_first_not_of(" \t\r\n") == std::string_view::npos;
}

struct Splice {
  std::size_t begin;
  std::size_t end;
  std::string with;
};

class StateFile {
 public:
  explicit StateFile(const std::string& text) : text_(text) {}

  Status Load() { return ScanToml(text_, &items_); }

  // The item index of key's [hooks.state."K"] table (nullopt: none).
  // Errors: written in another form, or twice.
  Status FindTable(const std::string& key, std::optional<std::size_t>* table) const {
    *table = std::nullopt;
    const std::vector<std::string> path = StatePath(key);
    const std::string where = "hooks.state.\"" + key + "\": ";
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const TomlItem& item = items_[i];
      if (item.kind == Kind::kTable && item.path == path) {
        if (*table) return Error(item, where + "the table is defined twice");
        *table = i;
      } else if (item.kind != Kind::kTrivia && StartsWith(item.path, path)) {
        // A pair inside the key's own table wrote only its own key on the line.
        const bool inside_own_table = item.kind == Kind::kKeyValue && item.path.size() - item.key_parts == path.size();
        if (!inside_own_table)
          return Error(item, where + "written in a form causegate does not edit (only its own table)");
      }
    }
    return Status::Ok();
  }

  // Whether a [hooks.state."K"] table may be appended.
  Status CheckAppend() const {
    for (const TomlItem& item : items_) {
      const bool defines_parent =
          (item.path == std::vector<std::string>{"hooks"} || item.path == std::vector<std::string>{"hooks", "state"}) &&
          (item.kind == Kind::kKeyValue || item.kind == Kind::kArrayTable);
      if (defines_parent) return Error(item, "hooks.state is written as a value here; a table cannot be added");
    }
    return Status::Ok();
  }

  // [header begin, end of the block's removal range).
  std::pair<std::size_t, std::size_t> RemovalRange(std::size_t table) const {
    std::size_t last = table;
    std::size_t next = table + 1;
    for (; next < items_.size(); ++next) {
      const Kind k = items_[next].kind;
      if (k == Kind::kTable || k == Kind::kArrayTable) break;
      if (k == Kind::kKeyValue) last = next;
    }
    std::size_t end_item = last + 1;
    while (end_item < next && IsBlank(text_, items_[end_item])) ++end_item;
    std::size_t begin = items_[table].begin;
    std::size_t end = end_item < items_.size() ? items_[end_item].begin : text_.size();
    if (end == text_.size()) {  // the last block: take the blank lines the append put before it
      for (std::size_t i = table; i-- > 0 && IsBlank(text_, items_[i]);) begin = items_[i].begin;
    }
    return {begin, end};
  }

  // The header line rewritten for new_key, its indentation and comment kept.
  Splice Rename(std::size_t table, const std::string& new_key) const {
    const TomlItem& h = items_[table];
    return {h.value_begin, h.value_end, "[hooks.state." + TomlKey(new_key) + "]"};
  }

  // The splice that sets trusted_hash in key's table (nullopt: already so).
  std::optional<Splice> SetHash(std::size_t table, const std::string& key, const std::string& hash) const {
    std::vector<std::string> path = StatePath(key);
    path.push_back("trusted_hash");
    const std::string value = "\"" + hash + "\"";
    for (std::size_t i = table + 1; i < items_.size(); ++i) {
      const TomlItem& item = items_[i];
      if (item.kind == Kind::kTable || item.kind == Kind::kArrayTable) break;
      if (item.kind != Kind::kKeyValue || item.path != path) continue;
      std::string current;
      const std::string_view raw = std::string_view(text_).substr(item.value_begin, item.value_end - item.value_begin);
      if (TomlStringValue(raw, &current) && current == hash) return std::nullopt;
      return Splice{item.value_begin, item.value_end, value};
    }
    const TomlItem& h = items_[table];
    const bool has_newline = h.end > h.begin && text_[h.end - 1] == '\n';
    return Splice{h.end, h.end, std::string(has_newline ? "" : "\n") + "trusted_hash = " + value + "\n"};
  }

  const std::vector<TomlItem>& items() const { return items_; }
  const std::string& text() const { return text_; }

 private:
  static Status Error(const TomlItem& item, const std::string& what) {
    return Status::Error(std::to_string(item.line) + ": " + what);
  }

  const std::string& text_;
  std::vector<TomlItem> items_;
};

}  // namespace

Status ReadHookState(const std::string& text, const std::string& key, HookState* out) {
  *out = HookState();
  std::vector<TomlItem> items;
  if (Status s = ScanToml(text, &items); !s.ok()) return s;
  const std::vector<std::string> path = StatePath(key);
  for (const TomlItem& item : items) {
    if (item.kind == Kind::kTrivia || !StartsWith(item.path, path)) continue;
    out->found = true;
    if (item.kind != Kind::kKeyValue) continue;
    if (item.path.size() == path.size()) {
      return Status::Error(std::to_string(item.line) + ": hooks.state.\"" + key +
                           "\" is an inline table, which causegate does not read");
    }
    const std::string_view raw = std::string_view(text).substr(item.value_begin, item.value_end - item.value_begin);
    if (item.path.size() == path.size() + 1 && item.path.back() == "trusted_hash") {
      if (!TomlStringValue(raw, &out->trusted_hash)) out->trusted_hash.clear();
    } else if (item.path.size() == path.size() + 1 && item.path.back() == "enabled") {
      out->disabled = raw == "false";
    }
  }
  return Status::Ok();
}

Status EditHookState(const std::string& text, const HookStateEdit& edit, std::string* out) {
  StateFile file(text);
  if (Status s = file.Load(); !s.ok()) return s;
  std::map<std::string, std::optional<std::size_t>> tables;  // every key the edit names
  auto find = [&](const std::string& key) -> Status {
    if (tables.count(key) != 0) return Status::Ok();
    return file.FindTable(key, &tables[key]);
  };
  for (const std::string& key : edit.remove) {
    if (Status s = find(key); !s.ok()) return s;
  }
  for (const auto& [from, to] : edit.rename) {
    if (Status s = find(from); !s.ok()) return s;
    if (Status s = find(to); !s.ok()) return s;
  }
  for (const auto& [key, hash] : edit.set_hash) {
    if (Status s = find(key); !s.ok()) return s;
  }

  std::vector<Splice> splices;
  std::map<std::string, std::size_t> final_at;  // key -> its table after removals and renames
  for (const auto& [key, table] : tables) {
    if (table) final_at[key] = *table;
  }
  for (const std::string& key : edit.remove) {
    if (!tables[key]) continue;
    final_at.erase(key);
    const auto [begin, end] = file.RemovalRange(*tables[key]);
    splices.push_back({begin, end, ""});
  }
  std::map<std::string, std::size_t> moved;
  for (const auto& [from, to] : edit.rename) {
    const auto it = final_at.find(from);
    if (it == final_at.end() || moved.count(from) != 0) continue;
    const auto target = final_at.find(to);
    const bool target_moves = target != final_at.end() && std::any_of(edit.rename.begin(), edit.rename.end(),
                                                                      [&to = to](const auto& r) { return r.first == to; });
    if (target != final_at.end() && !target_moves) continue;  // would define `to` twice
    moved[to] = it->second;
    splices.push_back(file.Rename(it->second, to));
  }
  for (const auto& [from, to] : edit.rename) {
    if (moved.count(to) != 0) final_at.erase(from);
  }
  for (const auto& [to, table] : moved) final_at[to] = table;

  std::string appended;
  for (const auto& [key, hash] : edit.set_hash) {
    const auto it = final_at.find(key);
    if (it != final_at.end()) {
      if (auto s = file.SetHash(it->second, key, hash)) splices.push_back(*s);
      continue;
    }
    if (Status s = file.CheckAppend(); !s.ok()) return s;
    appended += "[hooks.state." + TomlKey(key) + "]\ntrusted_hash = \"" + hash + "\"\n";
  }

  // An insertion at X sorts before a removal starting at X.
  std::sort(splices.begin(), splices.end(),
            [](const Splice& a, const Splice& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; });
  out->clear();
  std::size_t at = 0;
  for (const Splice& s : splices) {
    if (s.begin < at) continue;  // inside a block already removed
    out->append(text, at, s.begin - at);
    out->append(s.with);
    at = s.end;
  }
  out->append(text, at, std::string::npos);
  if (!appended.empty()) {
    if (!out->empty() && out->back() != '\n') out->push_back('\n');
    if (!out->empty()) out->push_back('\n');
    out->append(appended);
  }
  return Status::Ok();
}

}  // namespace causegate::install
