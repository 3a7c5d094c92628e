#!/usr/bin/env bash
# Binary drop-in test: compiles dropin_program.cpp against the REAL oneDNN
# headers and library (from scripts/ref-onednn.sh), links it WITHOUT an
# rpath, then runs it with LD_LIBRARY_PATH pointing at our libdnnl.so.3 so
# that our library replaces the real one at load time.
# Exit 77 (CTest: skipped) when the reference oneDNN cannot be obtained.
# Usage: run_dropin.sh REF_SCRIPT OUR_LIB_DIR PROGRAM_SRC WORK_DIR CXX [--sanitizer=S]
set -euo pipefail

ref_script=$1 our_lib=$2 src=$3 work=$4 cxx=$5
sanitizer=${6:-}
sanitizer=${sanitizer#--sanitizer=}

set +e
ref=$("$ref_script")
rc=$?
set -e
if [ $rc -eq 77 ]; then
    echo "SKIPPED: dropin_api_basic needs the reference oneDNN (see above)" >&2
    exit 77
elif [ $rc -ne 0 ] || [ -z "$ref" ]; then
    echo "dropin: $ref_script failed (exit $rc)" >&2
    exit 1
fi
ref_lib=$ref/lib
[ -e "$ref_lib/libdnnl.so.3" ] || ref_lib=$ref/lib64
echo "dropin: reference prefix $ref, our library in $our_lib"
[ -e "$our_lib/libdnnl.so.3" ] || { echo "dropin: no libdnnl.so.3 in $our_lib" >&2; exit 1; }

san_flags=()
# shellcheck disable=SC2054  # the comma belongs to -fsanitize=
case $sanitizer in
    "") ;;
    address-undefined) san_flags=(-fsanitize=address,undefined -fno-omit-frame-pointer) ;;
    thread) san_flags=(-fsanitize=thread) ;;
    *) echo "dropin: unknown sanitizer '$sanitizer'" >&2; exit 1 ;;
esac

mkdir -p "$work"
exe=$work/dropin_program
cflags=(-std=c++17 -O2 -Wall -I"$ref/include" "${san_flags[@]}")

# The program must see the real headers, not ours.
deps=$("$cxx" "${cflags[@]}" -M "$src")
if ! grep -q "$ref/include/oneapi/dnnl/dnnl.hpp" <<<"$deps"; then
    echo "dropin: dnnl.hpp did not resolve to $ref/include:" >&2
    grep -o '[^ ]*dnnl\.hpp' <<<"$deps" >&2 || true
    exit 1
fi

# Link against the real libdnnl.so.3; -rpath-link only helps ld find its
# dependencies and leaves no run-time path in the executable.
"$cxx" "${cflags[@]}" "$src" -o "$exe" -L"$ref_lib" -l:libdnnl.so.3 \
    -Wl,-rpath-link,"$ref_lib" -ldl
if command -v readelf >/dev/null 2>&1 && readelf -d "$exe" | grep -qE 'RPATH|RUNPATH'; then
    echo "dropin: $exe has an rpath:" >&2
    readelf -d "$exe" | grep -E 'RPATH|RUNPATH' >&2
    exit 1
fi

# LD_BIND_NOW: every dnnl_* symbol the program was linked with must exist
# in our library, not only those called on this path.
log=$work/dropin_program.log
set +e
LD_BIND_NOW=1 LD_LIBRARY_PATH="$our_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$exe" "$our_lib" "$ref" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
    echo "dropin: program failed (exit $rc)" >&2
    exit 1
fi
if ! tail -n 1 "$log" | grep -qE '^[0-9]+ passed, 0 failed$'; then
    echo "dropin: last line is not 'N passed, 0 failed'" >&2
    exit 1
fi
echo "dropin: OK"
