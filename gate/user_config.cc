#include "gate/user_config.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "rules/json_positions.h"

namespace causegate::gate {
namespace {

using Json = nlohmann::json;

// A config file is a few lines; anything this large is not one.
constexpr std::size_t kMaxConfigBytes = 1 << 20;

// Reports problems at the place of a key, so the user can go to it.
class Problems {
 public:
  Problems(std::string_view text, const std::string& path) : positions_(text), path_(path) {}

  Status At(const std::string& pointer, const std::string& what) const {
    const rules::TextPosition at = positions_.Find(pointer);
    return Status::Error(path_ + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + what);
  }
  rules::TextPosition Where(const std::string& pointer) const { return positions_.Find(pointer); }

 private:
  rules::JsonPositions positions_;
  const std::string& path_;
};

std::string Pointer(const std::string& key) { return "/" + rules::JsonPointerToken(key); }

Status ReadRules(const Json& value, const Problems& problems, std::vector<RuleSetting>* out) {
  if (!value.is_object()) return problems.At("/rules", "\"rules\" must be an object of rule id or glob to \"off\", \"warn\" or \"on\"");
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string pointer = "/rules" + Pointer(it.key());
    RuleSetting setting;
    setting.pattern = it.key();
    const std::string text = it->is_string() ? it->get<std::string>() : "";
    if (text == "off") {
      setting.value = RuleSwitch::kOff;
    } else if (text == "warn") {
      setting.value = RuleSwitch::kWarn;
    } else if (text == "on") {
      setting.value = RuleSwitch::kOn;
    } else {
      return problems.At(pointer, "rule \"" + it.key() + "\": the value must be \"off\", \"warn\" or \"on\", not " + it->dump());
    }
    const rules::TextPosition at = problems.Where(pointer);
    setting.line = at.line;
    setting.column = at.column;
    out->push_back(setting);
  }
  return Status::Ok();
}

Status ReadStrings(const Json& value, const std::string& key, const Problems& problems,
                   std::vector<std::string>* out) {
  if (!value.is_array()) return problems.At(Pointer(key), "\"" + key + "\" must be an array of strings");
  for (const Json& item : value) {
    if (!item.is_string()) return problems.At(Pointer(key), "\"" + key + "\" must be an array of strings, not with " + item.dump());
    out->push_back(item.get<std::string>());
  }
  return Status::Ok();
}

// "packs" are written relative to the file, as an agent's settings are.
std::vector<std::string> FromFileFolder(const std::vector<std::string>& paths, const std::string& file) {
  const std::filesystem::path folder = std::filesystem::path(file).parent_path();
  std::vector<std::string> out;
  for (const std::string& p : paths) out.push_back(std::filesystem::path(p).is_absolute() ? p : (folder / p).string());
  return out;
}

Status ReadKey(const std::string& key, const Json& value, const std::string& path, const Problems& problems,
               ConfigValues* out) {
  const std::string pointer = Pointer(key);
  if (key == "rules") return ReadRules(value, problems, &out->rules);
  if (key == "mode") {
    GateMode mode = GateMode::kBlock;
    if (!value.is_string() || !ParseGateMode(value.get<std::string>(), &mode)) {
      return problems.At(pointer, "\"mode\" must be \"block\", \"warn\" or \"off\", not " + value.dump());
    }
    out->mode = mode;
    return Status::Ok();
  }
  if (key == "max_blocks") {
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() > 100) {
      return problems.At(pointer, "\"max_blocks\" must be a whole number from 0 to 100, not " + value.dump());
    }
    out->max_blocks = value.get<int>();
    return Status::Ok();
  }
  if (key == "guess_fix") {
    rules::GuessFixMode mode = rules::GuessFixMode::kWarn;
    if (!value.is_string() || !rules::ParseGuessFixMode(value.get<std::string>(), &mode)) {
      return problems.At(pointer, "\"guess_fix\" must be \"warn\", \"block\" or \"off\", not " + value.dump());
    }
    out->guess_fix = mode;
    return Status::Ok();
  }
  if (key == "packs" || key == "exclude") {
    std::vector<std::string> items;
    if (Status s = ReadStrings(value, key, problems, &items); !s.ok()) return s;
    if (key == "packs") {
      out->packs = FromFileFolder(items, path);
    } else {
      out->exclude = items;
    }
    return Status::Ok();
  }
  if (key == "resident") {
    if (!value.is_boolean()) return problems.At(pointer, "\"resident\" must be true or false, not " + value.dump());
    out->resident = value.get<bool>();
    return Status::Ok();
  }
  if (key == "resident_idle_seconds") {
    if (!value.is_number_integer() || value.get<std::int64_t>() < 1 || value.get<std::int64_t>() > 86400) {
      return problems.At(pointer, "\"resident_idle_seconds\" must be a whole number from 1 to 86400, not " + value.dump());
    }
    out->resident_idle_seconds = value.get<int>();
    return Status::Ok();
  }
  return problems.At(pointer, "unknown key \"" + key +
                                  "\" (known: rules, mode, max_blocks, guess_fix, packs, exclude, resident, "
                                  "resident_idle_seconds)");
}

}  // namespace

const char* GateModeName(GateMode mode) {
  switch (mode) {
    case GateMode::kBlock: return "block";
    case GateMode::kWarn: return "warn";
    case GateMode::kOff: return "off";
  }
  return "block";
}

bool ParseGateMode(std::string_view name, GateMode* mode) {
  for (const GateMode m : {GateMode::kBlock, GateMode::kWarn, GateMode::kOff}) {
    if (name == GateModeName(m)) {
      *mode = m;
      return true;
    }
  }
  return false;
}

const char* RuleSwitchName(RuleSwitch value) {
  switch (value) {
    case RuleSwitch::kOff: return "off";
    case RuleSwitch::kWarn: return "warn";
    case RuleSwitch::kOn: return "on";
  }
  return "on";
}

Status ParseConfigFile(std::string_view text, const std::string& path, ConfigFile* out) {
  out->path = path;
  out->values = ConfigValues();
  if (text.size() > kMaxConfigBytes) return Status::Error(path + ": larger than " + std::to_string(kMaxConfigBytes) + " bytes");
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    const rules::TextPosition at = rules::PositionOf(text, e.byte > 0 ? e.byte - 1 : 0);
    return Status::Error(path + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": not valid JSON");
  }
  const Problems problems(text, path);
  if (!doc.is_object()) return problems.At("", "the file must hold one JSON object");
  ConfigValues values;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (Status s = ReadKey(it.key(), *it, path, problems, &values); !s.ok()) return s;
  }
  out->values = std::move(values);
  return Status::Ok();
}

Status ReadConfigFile(const std::string& path, ConfigFile* out, bool* present) {
  std::error_code ec;
  *present = std::filesystem::exists(path, ec);
  if (!*present) return Status::Ok();
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return Status::Error(path + ": cannot read");
  return ParseConfigFile(text.str(), path, out);
}

}  // namespace causegate::gate
