#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/CMakeLists.txt) with clang, seeds
# their corpora into the build folder and runs each for a set time.
# Exit 1 when a target crashes, leaks, hangs or trips UBSan: the input is
# kept as BUILD/fuzz-artifacts/<target>-crash-*. Exit 2 without clang or
# libFuzzer.
#
#   fuzz/run.sh --build DIR --seconds N [--jobs J] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-fuzz seconds=60 jobs=2 only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) only+=("$1"); shift ;;
  esac
done

# libFuzzer ships with clang's runtime (Debian: clang and libclang-rt-*-dev;
# scripts/install-deps --fuzz installs them). Probe with a real link.
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found; install it with scripts/install-deps --fuzz" >&2
  exit 2
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$probe/p.cc"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cc" -o "$probe/p" 2>"$probe/err"; then
  echo "fuzz: clang++ cannot link libFuzzer ($(head -1 "$probe/err")); install libclang-rt-dev with scripts/install-deps --fuzz" >&2
  exit 2
fi

# The compiler is chosen once, when the folder is new: naming it again on
# an existing cache makes CMake throw the cache away.
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCAUSEGATE_FUZZ=ON -DCAUSEGATE_SANITIZE=ON ${CMAKE_FLAGS:-} >/dev/null
fi
cmake --build "$build" -j "$jobs" --target fuzz_targets

corpus="$build/fuzz-corpus" artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
python3 fuzz/seed_corpus.py --source . --shared ../shared --out "$corpus"

mapfile -t targets <"$build/fuzz/targets.txt"
[[ ${#only[@]} -gt 0 ]] && targets=("${only[@]}")
failed=()
for t in "${targets[@]}"; do
  [[ -z "$t" ]] && continue
  mkdir -p "$corpus/$t"
  log="$build/fuzz-logs/$t.log"
  mkdir -p "$(dirname "$log")"
  # -timeout: one input over 10 s is a hang; -rss_limit_mb: the gate's own
  # bounds keep far below it; new inputs are added to the corpus folder.
  status=0
  "$build/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$t-" "$corpus/$t" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  if [[ $status -ne 0 ]]; then
    failed+=("$t")
    echo "fuzz: $t: FAILED after ${runs:-?} runs (exit $status); log $log, input in $artifacts" >&2
    grep -m5 -E 'ERROR|runtime error|SUMMARY' "$log" >&2 || tail -20 "$log" >&2
  else
    echo "fuzz: $t: ${runs:-?} runs in ${seconds} s, ${cov:-cov: ?}, corpus $(ls "$corpus/$t" | wc -l)"
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
  exit 1
fi
