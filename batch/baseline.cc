#include "batch/baseline.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "batch/shard.h"

namespace causegate::batch {
namespace {

using json = nlohmann::json;

constexpr std::string_view kBaselineFormat = "causegate-baseline";
constexpr int kBaselineVersion = 1;

// Flagged in the run, whether or not a baseline already knew it.
bool FlaggedInRun(const TurnRecord& turn) { return turn.action != "allow"; }

bool IsHexFingerprint(const std::string& s) {
  if (s.size() != 16) return false;
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

std::string ClaimFingerprint(const TurnRecord& turn, const ClaimRecord& claim) {
  const std::string key = turn.file + "\n" + std::to_string(turn.turn) + "\n" + claim.sentence;
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(Fnv1a64(key)));
  return hex;
}

std::string RenderBaseline(const CheckResults& results) {
  // In the order written, for the person reading the file's diff.
  using ordered_json = nlohmann::ordered_json;
  ordered_json claims = ordered_json::array();
  for (const TurnRecord& turn : results.turns) {
    if (!FlaggedInRun(turn)) continue;
    for (const ClaimRecord& claim : turn.claims) {
      if (claim.supported()) continue;
      // File, turn, rule and sentence for the person reading the diff; the
      // fingerprint alone is matched.
      claims.push_back({{"fingerprint", ClaimFingerprint(turn, claim)},
                        {"file", turn.file},
                        {"turn", turn.turn},
                        {"rule", claim.rule},
                        {"finding", claim.finding},
                        {"sentence", claim.sentence}});
    }
  }
  ordered_json doc = {{"format", std::string(kBaselineFormat)}, {"version", kBaselineVersion}, {"claims", std::move(claims)}};
  return doc.dump(1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

Status ParseBaseline(std::string_view text, const std::string& source, Baseline* out) {
  const json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::Error(source + ": not a baseline (not one JSON object; write it with causegate check "
                                  "--write-baseline FILE)");
  }
  if (!doc.contains("format") || doc["format"] != std::string(kBaselineFormat)) {
    return Status::Error(source + ": not a baseline (\"format\" is not \"causegate-baseline\")");
  }
  if (!doc.contains("version") || doc["version"] != kBaselineVersion) {
    return Status::Error(source + ": baseline version " + (doc.contains("version") ? doc["version"].dump() : "missing") +
                         " (this causegate reads version 1)");
  }
  if (!doc.contains("claims") || !doc["claims"].is_array()) return Status::Error(source + ": \"claims\" is not a list");
  Baseline baseline;
  std::size_t i = 0;
  for (const json& claim : doc["claims"]) {
    const std::string where = source + ": claims[" + std::to_string(i++) + "]: ";
    if (!claim.is_object() || !claim.contains("fingerprint") || !claim["fingerprint"].is_string()) {
      return Status::Error(where + "no \"fingerprint\" string");
    }
    const std::string fingerprint = claim["fingerprint"].get<std::string>();
    if (!IsHexFingerprint(fingerprint)) return Status::Error(where + "fingerprint is not 16 hex digits");
    baseline.fingerprints.insert(fingerprint);
  }
  *out = std::move(baseline);
  return Status::Ok();
}

int ApplyBaseline(const Baseline& baseline, CheckResults* results) {
  int marked = 0;
  TurnList& turns = results->turns;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    // Only flagged turns are read whole.
    if (turns.action(i) == "allow" || turns.known(i)) continue;
    const TurnRecord turn = turns[i];
    bool all_known = true;
    bool any = false;
    for (const ClaimRecord& claim : turn.claims) {
      if (claim.supported()) continue;
      any = true;
      all_known = all_known && baseline.fingerprints.count(ClaimFingerprint(turn, claim)) > 0;
    }
    if (any && all_known) {
      turns.set_known(i, true);
      ++marked;
    }
  }
  return marked;
}

}  // namespace causegate::batch
