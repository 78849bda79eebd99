// A baseline: the flagged claims a team accepts on the day it adopts the
// gate, so `check` fails only on new ones (history it cannot change must
// not fail every run). `check --write-baseline FILE` records every
// unsupported claim of every flagged turn by its fingerprint; `check
// --baseline FILE` marks a flagged turn known when all its unsupported
// claims are in the file, and known turns count as not flagged in every
// report and in the exit code (batch/CHECK.md, "Baseline").
//
// The fingerprint is the SARIF result's partialFingerprints value: the
// file as given, the turn number and the claim sentence, hashed. A session
// file that grows keeps its old turns' numbers, so a re-run finds them; a
// claim reworded or moved to another turn is new.
// Tests: tests/unit/batch/baseline_test.cc.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "batch/results.h"
#include "evidence/status.h"

namespace causegate::batch {

// 16 hex digits.
std::string ClaimFingerprint(const TurnRecord& turn, const ClaimRecord& claim);

struct Baseline {
  std::set<std::string> fingerprints;
};

// The baseline document of the flagged turns in results (known ones too,
// so a rewrite keeps them).
std::string RenderBaseline(const CheckResults& results);

// source names the file in errors.
Status ParseBaseline(std::string_view text, const std::string& source, Baseline* out);

// Marks known every flagged turn whose unsupported claims are all in
// baseline; returns how many it marked.
int ApplyBaseline(const Baseline& baseline, CheckResults* results);

}  // namespace causegate::batch
