#!/usr/bin/env bash
# Gathers into carry/ (ignored by git) what a build on a machine without a
# package registry needs from this one: the OpenCL headers and ICD loader,
# the Xbyak headers and GoogleTest. The lent GPU machine builds with
#   -DXBYAK_INCLUDE_DIR=carry/include -DOpenCL_INCLUDE_DIR=carry/include
#   -DOpenCL_LIBRARY=carry/lib/libOpenCL.so.1 -DGTEST_ROOT=carry
# (scripts/bench-gpu-device.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p carry/include carry/lib
cp -r /usr/include/CL /usr/include/xbyak /usr/include/gtest carry/include/
cp -a /usr/lib/x86_64-linux-gnu/libOpenCL.so* carry/lib/
cp /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest_main.a carry/lib/
du -sh carry
