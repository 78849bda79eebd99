# The two commands of the README: `make demo` and `make test`.
# `make` alone builds build/causegate.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# The reliability builds (fuzz/README.md): one clang folder with ASan, UBSan
# and libFuzzer's coverage hooks serves both `make sanitize` (every test
# through CTest) and `make fuzz` (each fuzz target for FUZZ_SECONDS).
SANITIZE_BUILD ?= build-sanitize
FUZZ_SECONDS ?= 60

# `make dist`: a Release build linked for handing around (CAUSEGATE_PORTABLE:
# re2 and utf8proc static, the other libraries bundled beside the binary),
# packed by scripts/dist.sh as DIST_BUILD/dist/causegate-VERSION-linux-ARCH.tar.gz
# and run in a bare root with only the C library (tests/e2e/dist_bare_root.py).
DIST_BUILD ?= build-dist

.PHONY: all deps configure build demo test test-agents clean deps-fuzz sanitize fuzz dist

all: build

deps:
	@scripts/install-deps

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Runs causegate on the bundled example transcripts: one blocked turn, one
# allowed, each with the reason the agent would get.
demo: build
	@examples/demo.sh $(BUILD)/causegate

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The real agent CLIs (Claude Code, Codex, Gemini CLI, Copilot CLI) at the
# versions pinned in tests/agents/versions.json, each in a network namespace
# against a scripted model (tests/agents/README.md). Skips, with one line
# saying why, where npm or unshare is missing. AGENTS_FLAGS=--latest runs
# the newest releases instead of the pins.
AGENTS_FLAGS ?=
test-agents: build
	@scripts/install-deps --agents
	@python3 tests/agents/run.py --bin $(BUILD)/causegate $(AGENTS_FLAGS); rc=$$?; \
	  if [ $$rc -eq 77 ]; then exit 0; fi; exit $$rc

deps-fuzz:
	@scripts/install-deps --fuzz

# UBSan halts so a finding fails its test; LSan runs at each exit. Time
# limits of the end-to-end tests that honour CAUSEGATE_TEST_TIME_SCALE are
# scaled for the slower instrumented binary.
sanitize: deps-fuzz
	test -f $(SANITIZE_BUILD)/CMakeCache.txt || cmake -S . -B $(SANITIZE_BUILD) \
	  -DCMAKE_CXX_COMPILER=clang++ -DCAUSEGATE_SANITIZE=ON -DCAUSEGATE_FUZZ=ON $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  CAUSEGATE_TEST_TIME_SCALE=3 ctest --output-on-failure -j $(JOBS)

fuzz: deps-fuzz
	CMAKE_FLAGS="$(CMAKE_FLAGS)" fuzz/run.sh --build $(SANITIZE_BUILD) --seconds $(FUZZ_SECONDS) --jobs $(JOBS)

dist: deps
	test -f $(DIST_BUILD)/CMakeCache.txt || cmake -S . -B $(DIST_BUILD) -DCMAKE_BUILD_TYPE=Release \
	  -DCAUSEGATE_PORTABLE=ON -DCAUSEGATE_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build $(DIST_BUILD) -j $(JOBS)
	@tarball=$$(scripts/dist.sh $(DIST_BUILD)) && \
	  python3 tests/e2e/dist_bare_root.py --tarball $$tarball --source . --work $(DIST_BUILD)/bare-root

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(DIST_BUILD)
