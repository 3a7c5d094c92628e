#!/usr/bin/env bash
# Package test: installs the build tree into a scratch prefix, then builds
# and runs consumer/ (an out-of-tree project) against it twice: through
# find_package(dnnl CONFIG) + DNNL::dnnl, and through `pkg-config dnnl`.
# Usage: run_package.sh CMAKE BUILD_DIR CONSUMER_SRC WORK_DIR CXX [--sanitizer=S]
set -euo pipefail

cmake=$1 build=$2 consumer=$3 work=$4 cxx=$5
sanitizer=${6:-}
sanitizer=${sanitizer#--sanitizer=}
san_flags=""
case $sanitizer in
    "") ;;
    address-undefined) san_flags="-fsanitize=address,undefined -fno-omit-frame-pointer" ;;
    thread) san_flags="-fsanitize=thread" ;;
    *) echo "package: unknown sanitizer '$sanitizer'" >&2; exit 1 ;;
esac

fail() { echo "package: FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

echo "== cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || {
    cat "$work/install.log"; fail "cmake --install failed"; }

config=$(find "$prefix" -name dnnlConfig.cmake -path '*/cmake/dnnl/*' | head -n 1)
[ -n "$config" ] || fail "no <libdir>/cmake/dnnl/dnnlConfig.cmake installed"
libdir=$(cd "$(dirname "$config")/../.." && pwd)
for f in "$libdir/libdnnl.so.3" "$libdir/libdnnl.so" \
         "$libdir/cmake/dnnl/dnnlConfigVersion.cmake" \
         "$libdir/cmake/dnnl/dnnlTargets.cmake" "$libdir/pkgconfig/dnnl.pc" \
         "$prefix/include/oneapi/dnnl/dnnl.hpp" "$prefix/include/oneapi/dnnl/dnnl.h" \
         "$prefix/include/oneapi/dnnl/dnnl_config.h" \
         "$prefix/include/oneapi/dnnl/dnnl_version.h"; do
    [ -e "$f" ] || fail "not installed: ${f#"$prefix"/}"
done

echo "== find_package(dnnl CONFIG) consumer"
"$cmake" -S "$consumer" -B "$work/consumer-build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_CXX_FLAGS="$san_flags" -DCMAKE_EXE_LINKER_FLAGS="$san_flags" \
    || fail "configuring the consumer project"
found=$(sed -n 's/^dnnl_DIR:PATH=//p' "$work/consumer-build/CMakeCache.txt")
[ "$(cd "$found" && pwd -P)" = "$(cd "$libdir/cmake/dnnl" && pwd -P)" ] ||
    fail "find_package found dnnl in '$found', not in $prefix"
"$cmake" --build "$work/consumer-build" || fail "building the consumer project"
# The CMake-built executable finds the library through its build rpath.
"$work/consumer-build/consumer" "$libdir" || fail "consumer (CMake) run"

echo "== pkg-config dnnl consumer"
command -v pkg-config >/dev/null 2>&1 || fail "pkg-config not installed (scripts/setup-deps.sh)"
export PKG_CONFIG_PATH="$libdir/pkgconfig"
pc_version=$(pkg-config --modversion dnnl) || fail "pkg-config cannot read dnnl.pc"
case $pc_version in 3.*) ;; *) fail "dnnl.pc version '$pc_version'" ;; esac
pc_flags=$(pkg-config --cflags --libs dnnl)
echo "pkg-config: dnnl $pc_version: $pc_flags"
# shellcheck disable=SC2086
"$cxx" -std=c++17 -O2 $san_flags "$consumer/main.cpp" $pc_flags -ldl \
    -o "$work/consumer_pc" || fail "compiling with pkg-config flags"
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$work/consumer_pc" "$libdir" || fail "consumer (pkg-config) run"

echo "package: OK"
