#!/usr/bin/env bash
# The gpu-engine benchmarks on a machine with an NVIDIA GPU (the lent H100),
# through NVIDIA's OpenCL platform. Run from the repository root with the
# carried build inputs in carry/ (OpenCL headers and ICD loader, Xbyak
# headers: scripts/make-carry.sh). Builds the library and the standalone
# benchmark driver, then prints, and writes under $OUT (or build-dev/out):
#   copy.txt     device-to-device copy bandwidth and cuBLAS FP32 matmul
#                through PyTorch (TF32 off), the references
#   perf.csv     benchdnn --mode=P lines (memory-bound suites, matmul)
#   create.csv   benchdnn --mode=I lines: kernel-cache hits (the driver's
#                "miss" figure runs with the program already cached) and,
#                with ONEDNN_KERNEL_CACHE_CAPACITY=0 and the driver's disk
#                cache off, full compiles
#   engine.txt   gpu engine creation, first and again
#   test_ocl.txt the OpenCL test binary run on the GPU
#   cache_blob.txt  (membound mode) creation from cache blobs and the
#                disk cache (tools/bench_cache_blob.cpp)
# Usage: scripts/bench-gpu-device.sh [membound]
#   membound: only the copy reference, the memory-bound suites and the
#   OpenCL tests named by TEST_FILTER (a gtest filter, default all)
set -euo pipefail
root=$(pwd)
carry=$root/carry
out=${OUT:-$root/build-dev/out}
mkdir -p "$out" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$carry/lib:${LD_LIBRARY_PATH:-}
# NVIDIA's driver keeps compiled OpenCL programs on disk; measure real
# compiles.
export CUDA_CACHE_DISABLE=1

# One build with the tests on: the library, the benchmark driver and the
# OpenCL test binary (GoogleTest from carry/).
cmake -S . -B build-dev/lib -DCMAKE_BUILD_TYPE=Release \
    -DONEDNN_BUILD_TESTS=ON -DONEDNN_BUILD_EXAMPLES=OFF -DONEDNN_GPU_RUNTIME=OCL \
    -DXBYAK_INCLUDE_DIR="$carry/include" -DOpenCL_INCLUDE_DIR="$carry/include" \
    -DOpenCL_LIBRARY="$carry/lib/libOpenCL.so.1" -DGTEST_ROOT="$carry/gtest" \
    > "$out/build.log" 2>&1
cmake --build build-dev/lib -j"$(nproc)" --target dnnl benchdnn test_ocl \
    >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
bench=build-dev/lib/tests/benchdnn/benchdnn
echo "built; devices:"
$bench --engine=gpu --mode=L --eltwise 1x1 >/dev/null && echo ok

mode=${1:-all}
python3 - "$mode" > "$out/copy.txt" <<'PY'
import sys
import torch
torch.backends.cuda.matmul.allow_tf32 = False
def t(f, n=20):
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    for _ in range(3): f()
    torch.cuda.synchronize(); ts = []
    for _ in range(n):
        s.record(); f(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2]
a = torch.empty(256 * 2**20, dtype=torch.float32, device='cuda'); b = torch.empty_like(a)
ms = t(lambda: b.copy_(a)); print("copy 1 GiB: %.3f ms, %.0f GB/s (read+write)" % (ms, 2 * a.numel() * 4 / ms / 1e6))
for m, n, k in [] if sys.argv[1] == "membound" else [(2048,2048,2048),(4096,4096,4096),(8192,8192,8192),(384,3072,768),(128,11008,4096)]:
    x = torch.randn(m, k, device='cuda'); y = torch.randn(k, n, device='cuda')
    ms = t(lambda: x @ y); print("cublas f32 %dx%dx%d: %.3f ms, %.1f TFLOP/s" % (m, n, k, ms, 2*m*n*k/ms/1e9))
PY
cat "$out/copy.txt"

if [ "$mode" = membound ]; then
    P="--engine=gpu --mode=P --max-ms-per-prb=1000"
    {
        set +e # a failing problem must not hide the others
        $bench $P --softmax --dir=FWD_I --axis=1 4096x16384 4096x1024
        $bench $P --lnorm --dir=FWD_I --flags=CH 16384x4096
        $bench $P --lnorm --dir=FWD_D --flags=CH 16384x4096
        $bench $P --bnorm --dir=FWD_I --flags=GCH mb64ic256ih56
        $bench $P --bnorm --dir=FWD_D --flags=CH mb64ic256ih56
        $bench $P --bnorm --dir=FWD_I --flags=GCH --tag=axb mb64ic256ih56
        $bench $P --bnorm --dir=FWD_D --flags=CH --tag=axb mb64ic256ih56
        $bench $P --gnorm --dir=FWD_I --flags=CH g32mb64ic256ih56
        $bench $P --gnorm --dir=FWD_D --flags=CH g32mb64ic256ih56
        $bench $P --gnorm --dir=FWD_I --flags=CH --tag=axb g32mb64ic256ih56
        $bench $P --gnorm --dir=FWD_D --flags=CH --tag=axb g32mb64ic256ih56
        $bench $P --lrn --dir=FWD_I mb64ic256ih56
        $bench $P --lrn --dir=FWD_D mb64ic256ih56
        $bench $P --pool --dir=FWD_I --tag=abx,axb --alg=max mb64ic256ih56oh28kh3sh2ph1
        $bench $P --pool --dir=FWD_I --tag=abx --alg=avg_np mb64ic256ih56oh28kh3sh2ph1
        # Backward passes.
        $bench $P --softmax --dir=BWD_D --axis=1 4096x16384
        $bench $P --lnorm --dir=BWD_DW --flags=CH 16384x4096
        $bench $P --lnorm --dir=BWD_D --flags=CH 16384x4096
        $bench $P --bnorm --dir=BWD_DW --flags=CH --tag=abx,axb mb64ic256ih56
        $bench $P --gnorm --dir=BWD_DW --flags=CH --tag=abx,axb g32mb64ic256ih56
        $bench $P --lrn --dir=BWD_D mb64ic256ih56
        $bench $P --pool --dir=BWD_D --tag=abx,axb --alg=max,avg_np mb64ic256ih56oh28kh3sh2ph1
        $bench $P --prelu --dir=FWD_D,BWD_DW 64x256x56x56:1x256x1x1
        # Element types beside f32.
        $bench $P --eltwise --alg=relu --dt=f16,bf16,f8_e5m2,f8_e4m3,u8 64x256x56x56
        $bench $P --binary --sdt=f16:f16 --ddt=f16 64x256x56x56:64x256x56x56
    } 2>&1 | grep -E "^perf|FAILED|SKIPPED" | tee "$out/perf.csv"
    g++ -O2 -Iinclude -Ibuild-dev/lib/include tools/bench_cache_blob.cpp \
        -Lbuild-dev/lib/src -ldnnl -L"$carry/lib" -lOpenCL \
        -Wl,-rpath,"$root/build-dev/lib/src" -o build-dev/bench_cache_blob
    build-dev/bench_cache_blob | tee "$out/cache_blob.txt"
    # Why an implementation was passed over (ONEDNN_VERBOSE=all lines of
    # the problems named in VERBOSE_PROBLEMS, benchdnn syntax, ';'-separated).
    IFS=';' read -ra probs <<< "${VERBOSE_PROBLEMS:-}"
    for p in "${probs[@]}"; do
        ONEDNN_VERBOSE=all $bench --engine=gpu --mode=C $p 2>&1 \
            | grep -v '^onednn_verbose,v1,info' | head -20
    done > "$out/verbose.txt"
    # Primitive tests on both engines (GoogleTest filter PRIM_FILTER).
    if [ -n "${PRIM_FILTER:-}" ]; then
        cmake --build build-dev/lib -j"$(nproc)" --target test_primitives \
            >> "$out/build.log" 2>&1 || echo "test_primitives: build failed"
        timeout 200 build-dev/lib/tests/test_primitives \
            --gtest_filter="$PRIM_FILTER" > "$out/test_primitives.txt" 2>&1 \
            || echo "test_primitives: exit $?"
        grep -E "^\[  (PASSED|FAILED) |^\[==========\]" \
            "$out/test_primitives.txt" | tail -15
    fi
    timeout "${TEST_SECONDS:-150}" build-dev/lib/tests/test_ocl \
        --gtest_filter="${TEST_FILTER:-*}" > "$out/test_ocl.txt" 2>&1 \
        || echo "test_ocl: exit $? (124: out of time)"
    grep -E "^\[  (PASSED|FAILED) |^\[==========\]" "$out/test_ocl.txt" | tail -15
    exit 0
fi

g++ -O2 -Iinclude -Ibuild-dev/lib/include tools/bench_gpu_engine.cpp \
    -Lbuild-dev/lib/src -ldnnl -Wl,-rpath,"$root/build-dev/lib/src" \
    -o build-dev/bench_gpu_engine
build-dev/bench_gpu_engine | tee "$out/engine.txt"

P="--engine=gpu --mode=P --max-ms-per-prb=1000"
{
    $bench $P --eltwise --alg=relu,gelu_erf 64x256x56x56 4096x16384
    $bench $P --binary --alg=ADD 64x256x56x56:64x256x56x56 64x256x56x56:1x256x1x1
    $bench $P --reorder --stag=nchw --dtag=nhwc 64x256x56x56
    $bench $P --reorder --sdt=f32 --ddt=bf16 64x256x56x56
    $bench $P --matmul 2048x2048:2048x2048 4096x4096:4096x4096 8192x8192:8192x8192 384x768:768x3072 128x4096:4096x11008
    $bench $P --conv mb32ic64ih56oc64oh56kh3ph1 mb32ic256ih56oc64oh56kh1ph0
    $bench $P --softmax --dir=FWD_I --axis=1 4096x16384
    $bench $P --lnorm --dir=FWD_I --flags=CH 16384x4096
    $bench $P --bnorm --dir=FWD_I --flags=GCH mb64ic256ih56
    $bench $P --pool --dir=FWD_I --tag=abx,axb --alg=max mb64ic256ih56oh28kh3sh2ph1
    $bench $P --batch=tests/benchdnn/inputs/softmax --batch=tests/benchdnn/inputs/lnorm
} 2>&1 | grep -E "^perf|FAILED|SKIPPED" | tee "$out/perf.csv"
{
    $bench --engine=gpu --mode=I --eltwise 64x256x56x56 64x256x56x57
    $bench --engine=gpu --mode=I --matmul 384x768:768x3072 385x768:768x3072
    ONEDNN_KERNEL_CACHE_CAPACITY=0 $bench --engine=gpu --mode=I \
        --max-ms-per-prb=2000 --eltwise 64x256x56x56
    ONEDNN_KERNEL_CACHE_CAPACITY=0 $bench --engine=gpu --mode=I \
        --max-ms-per-prb=2000 --matmul 384x768:768x3072
} 2>&1 | grep -E "^create|FAILED|SKIPPED" | tee "$out/create.csv"

# Last, with what time is left: the OpenCL tests on the real GPU.
timeout "${TEST_SECONDS:-150}" build-dev/lib/tests/test_ocl > "$out/test_ocl.txt" 2>&1 \
    || echo "test_ocl: exit $? (124: out of time)"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]" "$out/test_ocl.txt" | tail -15
