#!/usr/bin/env bash
# The README's first command ends here: run causegate on the bundled example
# sessions, the way an agent's Stop hook would, and show what it decides.
set -euo pipefail
bin=${1:-build/causegate}
cd "$(dirname "$0")/.."

run() {  # name, what it shows
  local name=$1
  echo "=== $2"
  echo "\$ $bin hook < examples/transcripts/$name.payload.json"
  local out
  out=$("$bin" hook < "examples/transcripts/$name.payload.json")
  if [[ -z "$out" ]]; then
    echo "(no output: the stop is allowed)"
  else
    python3 -c 'import json,sys; d=json.load(sys.stdin); print("decision:", d.get("decision","allow")); print(); print(d.get("reason") or d.get("systemMessage",""))' <<<"$out" 2>/dev/null || echo "$out"
  fi
  echo
}

run export-blocked "An agent names a cause that no tool output supports: blocked"
run export-allowed "The same turn, with the cause quoted from the tool output: allowed"
run export-blocked-zh "The same unsupported claim in Chinese: blocked, with the protocol in Chinese"
echo "=== Why: the dry run a person reads"
echo "\$ $bin explain examples/transcripts/export-allowed.jsonl"
NO_COLOR=1 "$bin" explain examples/transcripts/export-allowed.jsonl || true
