#!/usr/bin/env bash
# Builds the libFuzzer targets (clang 14, ASan + UBSan: preset `asan`, build-asan/, the same build as the sanitizer
# suite, scripts/test-sanitize.sh) and runs each one bounded: its seed corpus fuzz/corpus/<target>/ first, then
# mutations, with a fixed seed and at most LUMEN_FUZZ_SECONDS (default 5) seconds or LUMEN_FUZZ_RUNS inputs. A crash
# leaves its input in build-asan/fuzz/artifacts/<target>/ (see fuzz/README.md for turning it into a regression
# test). Extra ctest arguments pass through (-R fuzz_io_).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${LUMEN_JOBS:-$(nproc)}
cmake --preset asan -DLUMEN_FUZZ_SECONDS="${LUMEN_FUZZ_SECONDS:-5}" -DLUMEN_FUZZ_RUNS="${LUMEN_FUZZ_RUNS:-500000}" \
  >/dev/null
cmake --build build-asan -j"$jobs" --target fuzz_all  # the targets and the whole library, not the CLI or tests
ctest --test-dir build-asan/fuzz -j"$jobs" --output-on-failure "$@"
