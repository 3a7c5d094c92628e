#!/usr/bin/env bash
# The sanitizer runs of CI (called by build-and-test.sh; doc/testing.md):
#   1. AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer): a
#      clang build with ONEDNN_BUILD_FUZZERS=ON; the unit test binaries
#      (the OpenCL one too when OpenCL was found) and the fuzz targets are
#      built (nothing else), the unit tests run, then every fuzz target for
#      FUZZ_SECONDS on its committed seeds.
#   2. ThreadSanitizer (clang, libomp): the library and the cache tests
#      (test_cache, which holds the concurrency stress tests) only.
# Each stage prints its wall time. Exit status non-zero on any failure.
# Env: BUILD_DIR (the release build; the sanitizer builds go beside it as
#      <BUILD_DIR>-asan and <BUILD_DIR>-tsan), JOBS, FUZZ_SECONDS (60),
#      SANITIZE_STAGES ("asan tsan").
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
fuzz_seconds=${FUZZ_SECONDS:-60}
stages=${SANITIZE_STAGES:-asan tsan}

stamp() { date +%s; }

# After a failed fuzz run: the sanitizer's verdict, the top frames and each
# input that libFuzzer saved, in base64, printed last so that the tail of a
# CI log is enough to replay the finding (base64 -d > in; fuzz_<x> in).
report_fuzz_findings() {
    local log=$1/Testing/Temporary/LastTest.log
    echo "sanitize-and-test: fuzz findings (CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2))"
    [ -f "$log" ] && grep -E '^(==[0-9]+==ERROR|SUMMARY:|    #[0-4] )|runtime error|ALARM|out-of-memory|leak' "$log" | head -n 16
    local f
    for f in "$1"/tests/fuzz/fuzz_*-{crash,leak,timeout,oom,slow-unit}-*; do
        [ -f "$f" ] || continue
        echo "input $(basename "$f"): $(base64 -w0 < "$f")"
    done
}
took() { echo "sanitize-and-test: $1 took $(( $(stamp) - $2 )) s"; }

for stage in $stages; do
    t0=$(stamp)
    case $stage in
    asan)
        dir=$build-asan
        CC=clang CXX=clang++ cmake -S "$root" -B "$dir" \
            -DCMAKE_BUILD_TYPE=RelWithDebInfo -DONEDNN_BUILD_FUZZERS=ON \
            -DONEDNN_BUILD_TESTS=ON -DONEDNN_BUILD_EXAMPLES=OFF \
            -DONEDNN_FUZZ_SECONDS="$fuzz_seconds"
        fuzzers=$(cd "$root/tests/fuzz" && ls fuzz_*.cpp | sed 's/\.cpp$//')
        # shellcheck disable=SC2086
        # test_ocl runs the gpu engine's tests when the build found OpenCL
        # (PoCL in CI); without it its tests compile to nothing.
        cmake --build "$dir" -j "$jobs" --target test_api test_common \
            test_primitives test_cpu test_cache test_ocl $fuzzers
        took "asan build" "$t0"
        t1=$(stamp)
        (
            cd "$dir"
            export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
            export LSAN_OPTIONS=suppressions=$root/tests/lsan.supp:print_suppressions=0
            export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
            ctest --output-on-failure -R '^(api|common|primitives|cpu|cache|cpu_gemm_int8_.*|ocl)$'
            took "asan unit tests" "$t1"
            t2=$(stamp)
            ctest --output-on-failure -L fuzz || { report_fuzz_findings "$dir"; exit 1; }
            took "fuzz targets" "$t2"
        )
        ;;
    tsan)
        dir=$build-tsan
        CC=clang CXX=clang++ cmake -S "$root" -B "$dir" \
            -DCMAKE_BUILD_TYPE=RelWithDebInfo -DONEDNN_SANITIZER=thread \
            -DONEDNN_BUILD_TESTS=ON -DONEDNN_BUILD_EXAMPLES=OFF
        cmake --build "$dir" -j "$jobs" --target test_cache
        took "tsan build" "$t0"
        t1=$(stamp)
        (
            cd "$dir"
            export TSAN_OPTIONS="halt_on_error=1 suppressions=$root/tests/tsan.supp"
            ctest --output-on-failure -R '^cache$'
            took "tsan cache tests" "$t1"
        )
        ;;
    *) echo "sanitize-and-test: unknown stage '$stage'" >&2; exit 2 ;;
    esac
    took "stage $stage" "$t0"
done
echo "sanitize-and-test: sanitizer runs passed."
