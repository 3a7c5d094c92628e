#!/usr/bin/env bash
# CPU suites on the lent machine from binaries built here (no build there:
# the machine has no package registry, and a build costs device time).
#
#   scripts/device-cpu-suites.sh pack BUILD_DIR REF32_PREFIX REF32_BENCHDNN
#       packs into carry/cpu-suites.tar.xz (ignored by git): this build's
#       libdnnl.so.3 (stripped), test_cpu, test_primitives and benchdnn,
#       oneDNN 3.2's library with the same benchdnn sources built against
#       it, and this machine's libstdc++ / libgomp / libgcc_s;
#   scripts/device-cpu-suites.sh run [SUITE ...]      (on the lent machine,
#       through the device tool with carry: carry/cpu-suites.tar.xz and
#       scripts/): runs the BRGEMM, ISA and kernel-table tests of test_cpu
#       and the matmul / convolution / inner-product tests of
#       test_primitives, then each suite (tests/benchdnn/inputs/<suite>,
#       default: matmul_bf16 int8 ip resnet50_bf16) three times, ours and
#       oneDNN 3.2 alternating, OMP_NUM_THREADS (default 16) threads;
#       the logs go to $OUT/logs.tgz.
# The Xeon tables of doc/performance.md are the medians over the rounds
# of each problem's benchdnn median.
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=carry/cpu-suites.tar.xz

if [[ "${1:-}" == pack ]]; then
    build=$2 ref=$3 refbench=$4
    tmp=$(mktemp -d)
    mkdir -p "$tmp/ours" "$tmp/ref32" "$tmp/sys"
    cp "$build"/src/libdnnl.so.3 "$tmp/ours/libdnnl.so.3"
    strip "$tmp/ours/libdnnl.so.3"
    cp "$build"/tests/test_cpu "$build"/tests/test_primitives \
            "$build"/tests/benchdnn/benchdnn "$tmp/ours/"
    cp -L "$ref"/lib/libdnnl.so.3 "$tmp/ref32/"
    cp "$refbench" "$tmp/ref32/benchdnn"
    for l in libstdc++.so.6 libgomp.so.1 libgcc_s.so.1; do
        cp -L /lib/x86_64-linux-gnu/$l "$tmp/sys/"
    done
    mkdir -p carry
    tar cf - -C "$tmp" ours ref32 sys | xz -T2 -3 > "$pkg"
    rm -rf "$tmp"
    ls -la "$pkg"
    exit 0
fi

[[ "${1:-}" == run ]] || { sed -n 2,20p "$0"; exit 2; }
shift
suites=${*:-matmul_bf16 int8 ip resnet50_bf16}
x=/tmp/cpu-suites
logs=/tmp/cpu-suites-logs
mkdir -p "$x" "$logs"
tar xJf "$pkg" -C "$x"
ours() { LD_LIBRARY_PATH=$x/ours:$x/sys "$@"; }
ref() { LD_LIBRARY_PATH=$x/ref32:$x/sys "$@"; }
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
ours "$x/ours/test_cpu" \
        --gtest_filter='JitBrgemm*:InnerProduct*:IsaDispatch*:KernelTables*' \
        > "$logs/test_cpu.log" 2>&1 && echo "test_cpu passed" \
        || echo "test_cpu FAILED"
ours "$x/ours/test_primitives" \
        --gtest_filter='*Matmul*:*Convolution*:*InnerProduct*' \
        > "$logs/test_primitives.log" 2>&1 && echo "test_primitives passed" \
        || echo "test_primitives FAILED"
for r in 1 2 3; do
    for s in $suites; do
        args=(--mode=P --max-ms-per-prb=100 --batch=tests/benchdnn/inputs/$s)
        ours "$x/ours/benchdnn" "${args[@]}" > "$logs/${s}_ours_r$r.log" 2>&1 || true
        ref "$x/ref32/benchdnn" "${args[@]}" > "$logs/${s}_ref32_r$r.log" 2>&1 || true
    done
    echo "round $r done"
done
tar czf "${OUT:-/tmp}/logs.tgz" -C "$logs" .
