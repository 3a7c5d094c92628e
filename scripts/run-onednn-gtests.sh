#!/bin/bash
# Builds oneDNN's own gtests (tests/gtests of a oneDNN source tree of the
# pinned version, e.g. uxlfoundation/oneDNN branch rls-v3.13) against an
# installed prefix of this library and runs them on one engine.
#
#   scripts/run-onednn-gtests.sh ONEDNN_SRC PREFIX OUT_DIR [cpu|gpu]
#
# The tests include oneDNN's internal headers (src/common, src/cpu/x64 and
# its bundled Xbyak) and call the C++ entries oneDNN exports for them; the
# library under test provides those (src/api/internal_cxx_exports.cpp).
# GoogleTest comes from the system (Debian libgtest-dev). Each binary's
# output goes to OUT_DIR/<test>.log, a one-line verdict per binary to
# OUT_DIR/summary.txt. GPU runs use OpenCL buffers (the USM variants need
# Intel's unified shared memory extension).
set -u
src=${1:?oneDNN source tree}; prefix=${2:?install prefix}; out=${3:?output dir}
engine=${4:-cpu}
g="$src/tests/gtests"
[ -f "$g/main.cpp" ] || { echo "no $g/main.cpp" >&2; exit 2; }
mkdir -p "$out/bin"
inc="-I$prefix/include -I$src -I$src/src -I$src/third_party/xbyak -I$g -I$g/in -I$g/gtest"
flags="-std=c++17 -O1 -fopenmp -DNDEBUG $inc"
# The test lists of oneDNN's tests/gtests/CMakeLists.txt (engine-parameter
# tests, then those without one).
eng_tests="test_persistent_cache_api test_primitive_cache_mt
 test_iface_primitive_cache test_iface_pd test_iface_pd_iter test_iface_attr
 test_iface_binary_bcast test_iface_handle test_iface_runtime_dims
 test_iface_attr_quantization test_iface_weights_format
 test_iface_wino_convolution test_iface_sparse test_sum test_reorder
 test_concat test_eltwise test_pooling_forward test_pooling_backward
 test_batch_normalization test_inner_product_forward
 test_inner_product_backward_data test_inner_product_backward_weights
 test_shuffle test_rnn_forward test_convolution_forward_f32
 test_convolution_forward_u8s8s32 test_convolution_forward_u8s8fp
 test_convolution_eltwise_forward_f32
 test_convolution_eltwise_forward_x8s8f32s32
 test_convolution_backward_data_f32 test_convolution_backward_weights_f32
 test_deconvolution test_binary test_matmul test_resampling test_reduction
 test_softmax test_concurrency test_layer_normalization test_lrn test_prelu
 test_group_normalization test_gemm_f16 test_gemm_f32 test_gemm_f16f16f32
 test_gemm_bf16bf16f32 test_gemm_bf16bf16bf16 test_gemm_u8s8s32
 test_gemm_s8s8s32 test_gemm_s8u8s32 test_gemm_u8u8s32
 test_convolution_format_any test_global_scratchpad"
plain_tests="test_cross_engine_reorder test_isa_mask test_isa_hints test_isa_iface"
api_srcs=$(cd "$g/api" && ls test_*.cpp | sed 's/\.cpp$//')
{
  echo "F=$flags"
  echo "L=-L$prefix/lib -ldnnl -lgtest -lpthread -fopenmp -Wl,-rpath,$prefix/lib"
  echo "all: $(for t in $eng_tests $plain_tests; do printf 'bin/%s ' $t; done) bin/test_api"
  echo "mainE.o: $g/main.cpp"; printf '\tg++ $(F) -DDNNL_TEST_WITH_ENGINE_PARAM -c $< -o $@\n'
  echo "mainN.o: $g/main.cpp"; printf '\tg++ $(F) -c $< -o $@\n'
  echo "thread.o: $src/tests/test_thread.cpp"; printf '\tg++ $(F) -c $< -o $@\n'
  for t in $eng_tests; do
    echo "$t.o: $g/$t.cpp"; printf '\tg++ $(F) -DDNNL_TEST_WITH_ENGINE_PARAM -c $< -o $@\n'
    echo "bin/$t: $t.o mainE.o thread.o"; printf '\tg++ -o $@ $^ $(L)\n'
  done
  for t in $plain_tests; do
    echo "$t.o: $g/$t.cpp"; printf '\tg++ $(F) -c $< -o $@\n'
    echo "bin/$t: $t.o mainN.o thread.o"; printf '\tg++ -o $@ $^ $(L)\n'
  done
  objs=""
  for t in $api_srcs; do
    echo "api_$t.o: $g/api/$t.cpp"; printf '\tg++ $(F) -DDNNL_TEST_WITH_ENGINE_PARAM -c $< -o $@\n'
    objs="$objs api_$t.o"
  done
  echo "bin/test_api: $objs mainE.o thread.o"; printf '\tg++ -o $@ $^ $(L)\n'
} > "$out/Makefile"
make -k -C "$out" -j"$(nproc)" > "$out/build.log" 2>&1 || echo "some tests did not build: $out/build.log" >&2
: > "$out/summary.txt"
for b in "$out"/bin/*; do
  t=$(basename "$b")
  case " $plain_tests " in *" $t "*) args="";; *) args="--engine=$engine";; esac
  timeout 900 "$b" $args > "$out/$t.log" 2>&1; rc=$?
  echo "$t rc=$rc $(grep -E '^\[  (PASSED|FAILED)  \] [0-9]' "$out/$t.log" | tr '\n' ' ')" >> "$out/summary.txt"
done
cat "$out/summary.txt"
