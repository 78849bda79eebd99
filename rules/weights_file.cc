#include "rules/weights_file.h"

#include <cmath>
#include <cstdlib>
#include <unordered_set>

namespace causegate::rules {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool ParseDouble(std::string_view text, double* out) {
  const std::string copy(text);
  char* end = nullptr;
  *out = std::strtod(copy.c_str(), &end);
  return end != nullptr && *end == '\0' && !copy.empty() && std::isfinite(*out);
}

}  // namespace

bool ReadWeightsFile(std::string_view text, const std::string& file, WeightsFile* out, std::string* error) {
  WeightsFile w;
  bool have_bias = false;
  bool have_threshold = false;
  std::unordered_set<std::string> seen;
  int line_number = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_number;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = Trim(line);
    if (line.empty()) continue;
    const std::size_t tab = line.find('\t');
    const std::string where = file + ":" + std::to_string(line_number) + ": ";
    if (tab == std::string_view::npos) {
      *error = where + "expected \"name<TAB>weight\"";
      return false;
    }
    std::string name(Trim(line.substr(0, tab)));
    double value = 0;
    if (name.empty()) {
      *error = where + "empty feature name";
      return false;
    }
    if (!ParseDouble(Trim(line.substr(tab + 1)), &value)) {
      *error = where + "weight is not a finite number";
      return false;
    }
    if (name == "bias") {
      w.bias = value;
      have_bias = true;
    } else if (name == "threshold") {
      w.threshold = value;
      have_threshold = true;
    } else if (!seen.insert(name).second) {
      *error = where + "feature \"" + name + "\" given twice";
      return false;
    } else {
      w.weights.emplace_back(std::move(name), value);
    }
  }
  if (!have_bias || !have_threshold) {
    *error = file + ": \"bias\" and \"threshold\" are required";
    return false;
  }
  *out = std::move(w);
  return true;
}

}  // namespace causegate::rules
