#!/usr/bin/env bash
# Provides the real oneDNN (PyPI onednn + onednn-devel) as the reference to
# compare with, in a cached virtual environment, and prints its prefix:
#   PREFIX/include/oneapi/dnnl/dnnl.hpp   PREFIX/lib/libdnnl.so.3
# The venv lives in ${DNNL_REF_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/dnnl-ref-venv}
# and is created once. Exit status 77 (and a SKIPPED line on stderr) when the
# package registry cannot be reached: callers treat that as "skip".
# Logs go to stderr; stdout carries the prefix only.
set -euo pipefail

version=${DNNL_REF_VERSION:-2026.1.0}
venv=${DNNL_REF_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/dnnl-ref-venv}
python=${PYTHON:-python3}

log() { echo "ref-onednn: $*" >&2; }
skip() {
    {
        echo "########################################################################"
        echo "SKIPPED: reference oneDNN unavailable ($*)"
        echo "########################################################################"
    } >&2
    exit 77
}

ready() {
    [ -e "$venv/lib/libdnnl.so.3" ] &&
    [ -e "$venv/lib/libtbb.so.12" ] &&
    [ -e "$venv/lib/libur_adapter_opencl.so.0" ] &&
    [ -e "$venv/ref-env.sh" ] &&
    [ -e "$venv/include/oneapi/dnnl/dnnl.hpp" ] &&
    compgen -G "$venv/lib/python3*/site-packages/onednn-$version.dist-info" >/dev/null &&
    compgen -G "$venv/lib/python3*/site-packages/onednn_devel-$version.dist-info" >/dev/null
}

if ready; then
    echo "$venv"
    exit 0
fi

mkdir -p "$(dirname "$venv")"
# Serialise concurrent callers (parallel ctest, two builds) on one venv.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$venv.lock"
    flock 9
    if ready; then
        echo "$venv"
        exit 0
    fi
fi

if [ ! -x "$venv/bin/python" ]; then
    log "creating virtual environment $venv"
    if ! "$python" -m venv "$venv" >&2; then
        rm -rf "$venv"
        log "cannot create a venv with $python (on Debian: apt-get install python3-venv," \
            "or run scripts/setup-deps.sh)"
        exit 1
    fi
fi

log "installing onednn==$version onednn-devel==$version into $venv (about 1 GB)"
pip_log=$(mktemp)
trap 'rm -f "$pip_log"' EXIT
if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input \
        --retries 2 --timeout 30 \
        "onednn==$version" "onednn-devel==$version" >"$pip_log" 2>&1; then
    tail -n 20 "$pip_log" >&2
    if grep -qiE 'NewConnectionError|ConnectTimeout|ReadTimeout|Connection (refused|reset|aborted)|Network is unreachable|Temporary failure in name resolution|Name or service not known|ProxyError|SSLError|Max retries exceeded|No matching distribution found|Could not fetch URL' "$pip_log"; then
        skip "pip could not fetch onednn==$version from the package index"
    fi
    log "pip install failed (see above)"
    exit 1
fi

# The PyPI build of oneDNN is a SYCL build: its CPU engine is a SYCL CPU
# device, which needs TBB, the SYCL OpenCL adapter (not among onednn's own
# dependencies) and Intel's OpenCL CPU runtime named through
# OCL_ICD_FILENAMES. ref-env.sh sets what a process needs to run it.
if ! "$venv/bin/python" -m pip install --disable-pip-version-check --no-input \
        --retries 2 --timeout 30 tbb >"$pip_log" 2>&1; then
    tail -n 20 "$pip_log" >&2
    skip "pip could not fetch tbb"
fi
ur_dir=$(mktemp -d)
if ! "$venv/bin/python" -m pip download --disable-pip-version-check --no-input \
        --retries 2 --timeout 30 --no-deps -d "$ur_dir" \
        "intel-cmplr-lib-ur==2026.0.0" >"$pip_log" 2>&1; then
    tail -n 20 "$pip_log" >&2
    rm -rf "$ur_dir"
    skip "pip could not fetch intel-cmplr-lib-ur"
fi
# Only the OpenCL adapter is taken from the wheel (its data files).
"$venv/bin/python" - "$ur_dir" "$venv/lib" <<'PY'
import glob, os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
for whl in glob.glob(os.path.join(src, "*.whl")):
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            base = os.path.basename(name)
            if base.startswith("libur_adapter_opencl.so"):
                with open(os.path.join(dst, base), "wb") as f:
                    f.write(z.read(name))
PY
rm -rf "$ur_dir"
cat > "$venv/ref-env.sh" <<ENV
# Source this to run programs on the reference oneDNN in $venv.
export LD_LIBRARY_PATH="$venv/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export OCL_ICD_FILENAMES="$venv/lib/libintelocl.so"
ENV

if ! ready; then
    log "onednn installed but $venv lacks lib/libdnnl.so.3 or include/oneapi/dnnl/dnnl.hpp"
    exit 1
fi
log "reference oneDNN $version ready"
echo "$venv"
