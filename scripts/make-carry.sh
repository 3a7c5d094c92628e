#!/usr/bin/env bash
# Gathers into carry/ (ignored by git) what a build on a machine without a
# package registry needs from this one: the OpenCL headers and ICD loader,
# the Xbyak headers and GoogleTest. The lent GPU machine builds with
#   -DXBYAK_INCLUDE_DIR=carry/include -DOpenCL_INCLUDE_DIR=carry/include
#   -DOpenCL_LIBRARY=carry/lib/libOpenCL.so.1 -DGTEST_ROOT=carry/gtest
# (scripts/bench-gpu-device.sh does). GoogleTest has a folder of its own:
# where that machine has its own GoogleTest, CMake links that one, and
# this one's headers must not shadow its headers (a mismatch corrupts the
# heap in the death tests).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf carry/include/gtest carry/lib/libgtest*.a
mkdir -p carry/include carry/lib carry/gtest/include carry/gtest/lib
cp -r /usr/include/CL /usr/include/xbyak carry/include/
cp -a /usr/lib/x86_64-linux-gnu/libOpenCL.so* carry/lib/
cp -r /usr/include/gtest carry/gtest/include/
cp /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest_main.a carry/gtest/lib/
du -sh carry
