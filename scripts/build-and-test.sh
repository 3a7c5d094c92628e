#!/usr/bin/env bash
# Fresh machine to tested library in one command: installs the Debian
# dependencies and the reference oneDNN (a cached venv), configures with the
# tests on, builds with every core and runs the whole CTest suite.
# Exit status is non-zero when any step or any test fails.
# Then the other CPU threading runtimes (RUNTIMES, default "TBB SEQ"): one
# build each (library and the CPU test binaries, mostly ccache hits on the
# first build's objects) running the api, common, cpu, primitives and cache
# suites.
# Then (SANITIZE=1, the default) the hardening runs of doc/testing.md: the
# unit tests and the fuzz targets (bounded, label `fuzz`) under
# AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer, and the
# concurrency (cache) tests under ThreadSanitizer, each in its own clang
# build of only the targets it runs.
# Usage: scripts/build-and-test.sh [extra cmake -D options...]
# Env:   BUILD_DIR (default: build), JOBS (default: all cores),
#        CTEST_ARGS (extra ctest arguments, e.g. "-j2" or "-R api"),
#        RUNTIMES (CPU runtimes besides the default OpenMP build; "" for
#        none), SANITIZE (1: also the sanitizer runs; 0: skip them),
#        FUZZ_SECONDS (per fuzz target in the ASan run, default 60),
#        ONEDNN_OCL_BUILD_OPTIONS (default here: -cl-opt-disable, below).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

"$root/scripts/setup-deps.sh"

# The gpu engine's tests run on PoCL here and in CI: PoCL compiles every
# program with LLVM on the host, and with its program cache empty (after a
# change to a shared kernel header) that compilation was most of the test
# time. Unoptimised programs build 2.3x faster and run the tests' small
# problems as fast (LRN and shuffle tests, empty cache: 19 s against 45 s;
# warm: 1.7 against 1.6 s; all of test_ocl, empty cache: 435 s, against
# 1530 s optimised with a build beside it). A caller's own
# ONEDNN_OCL_BUILD_OPTIONS wins; both test stages see the same options, so
# the sanitizer stage finds the programs cached.
export ONEDNN_OCL_BUILD_OPTIONS=${ONEDNN_OCL_BUILD_OPTIONS--cl-opt-disable}

# The drop-in test compiles against the real oneDNN; fetch it now so that
# the test itself does not download. Unreachable registry = that test skips.
set +e
ref=$("$root/scripts/ref-onednn.sh")
ref_rc=$?
set -e
case $ref_rc in
    0) echo "build-and-test: reference oneDNN at $ref" ;;
    77) echo "build-and-test: WARNING: no reference oneDNN, the drop-in test will be SKIPPED" >&2 ;;
    *) echo "build-and-test: scripts/ref-onednn.sh failed (exit $ref_rc)" >&2; exit "$ref_rc" ;;
esac

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DONEDNN_BUILD_TESTS=ON -DONEDNN_BUILD_EXAMPLES=ON "$@"
cmake --build "$build" -j "$jobs"

(
    cd "$build"
    # shellcheck disable=SC2086
    ctest --output-on-failure ${CTEST_ARGS:-}
)
echo "build-and-test: all tests passed."

for rt in ${RUNTIMES-TBB SEQ}; do
    start=$(date +%s)
    rt_build="$build-$(echo "$rt" | tr '[:upper:]' '[:lower:]')"
    # Configured as the build above but for the runtime, so that every
    # object that does not call the runtime is a ccache hit (see the top
    # CMakeLists.txt); the gpu engine's primitive tests run here too.
    cmake -S "$root" -B "$rt_build" -DCMAKE_BUILD_TYPE=Release \
        -DONEDNN_CPU_RUNTIME="$rt" \
        -DONEDNN_BUILD_TESTS=ON -DONEDNN_BUILD_EXAMPLES=OFF "$@"
    cmake --build "$rt_build" -j "$jobs" \
        --target test_api test_common test_cpu test_primitives test_cache
    (cd "$rt_build" && ctest --output-on-failure -R '^(api|common|cpu|primitives|cache)$')
    echo "build-and-test: CPU runtime $rt passed ($(( $(date +%s) - start )) s)."
done

if [ "${SANITIZE:-1}" = 1 ]; then
    "$root/scripts/sanitize-and-test.sh"
fi
