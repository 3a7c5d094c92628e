#!/usr/bin/env bash
# The CPU kernel tables on a machine with more ISAs than the development
# one (the lent Xeon: AVX2-VNNI, AVX512-FP16, AMX), with no package
# registry: builds the CPU test binaries with GoogleTest from carry/
# (scripts/make-carry.sh), then runs the kernel-table, dispatch and GEMM
# tests with ONEDNN_MAX_CPU_ISA pinned to each ISA below (entries above
# the machine's ISA fall back to the machine's), and the whole test_cpu
# and test_primitives binaries at the machine's own ISA.
# Writes under $OUT (or build-dev/out): cpu-isa-<ISA>.txt, cpu-full.txt.
set -uo pipefail
root=$(pwd)
carry=$root/carry
out=${OUT:-$root/build-dev/out}
mkdir -p "$out"
lscpu > "$out/lscpu.txt"
cmake -S . -B build-dev/cpu -DCMAKE_BUILD_TYPE=Release -DONEDNN_GPU_RUNTIME=NONE \
    -DONEDNN_BUILD_TESTS=ON -DONEDNN_BUILD_EXAMPLES=OFF \
    -DXBYAK_INCLUDE_DIR="$carry/include" -DGTEST_ROOT="$carry/gtest" > "$out/build.log" 2>&1
cmake --build build-dev/cpu -j"$(nproc)" --target test_cpu test_primitives \
    >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
bin=build-dev/cpu/tests
filter='KernelTables*:IsaDispatch*:Gemm*:Jit*:Brgemm*'
for isa in ${ISAS:-SSE41 AVX2 AVX2_VNNI AVX512_CORE AVX512_CORE_VNNI AVX512_CORE_BF16 AVX512_CORE_FP16 AVX512_CORE_AMX}; do
    ONEDNN_MAX_CPU_ISA=$isa ONEDNN_VERBOSE=0 timeout 300 $bin/test_cpu \
        --gtest_filter="$filter" > "$out/cpu-isa-$isa.txt" 2>&1
    echo "$isa: exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$out/cpu-isa-$isa.txt" | tr '\n' ' ')"
done
timeout 400 $bin/test_cpu > "$out/cpu-full.txt" 2>&1; echo "test_cpu: exit $?"
timeout 400 $bin/test_primitives > "$out/primitives-full.txt" 2>&1; echo "test_primitives: exit $?"
grep -hE "^\[  FAILED " "$out"/cpu-*.txt "$out/primitives-full.txt" | sort | uniq | head -30
