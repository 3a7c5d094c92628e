#!/usr/bin/env bash
# Installs the Debian packages this project builds and tests with, but only
# the missing ones: when everything is present apt is not touched at all.
# Runs apt-get as root directly, or through sudo when not root.
# Usage: scripts/setup-deps.sh        (env EXTRA_DEBS="pkg ..." adds packages)
set -euo pipefail

packages=(cmake g++ make python3 python3-venv pkg-config libxbyak-dev
          opencl-headers ocl-icd-opencl-dev pocl-opencl-icd libgtest-dev ccache
          clang libclang-rt-dev libomp-dev # clang & co: sanitizer runs, fuzzers
          libtbb-dev stress-ng) # the TBB runtime build; loaded benchmarks
# shellcheck disable=SC2206
[ -n "${EXTRA_DEBS:-}" ] && packages+=(${EXTRA_DEBS})

installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "setup-deps: dpkg not found; this script supports Debian/Ubuntu only." >&2
    echo "setup-deps: install by hand: ${packages[*]}" >&2
    exit 1
fi

missing=()
for p in "${packages[@]}"; do
    installed "$p" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "setup-deps: all ${#packages[@]} packages already installed."
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "setup-deps: missing packages (${missing[*]}) and neither root nor sudo." >&2
    exit 1
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"

still=()
for p in "${missing[@]}"; do
    installed "$p" || still+=("$p")
done
if [ ${#still[@]} -ne 0 ]; then
    echo "setup-deps: failed to install: ${still[*]}" >&2
    exit 1
fi
echo "setup-deps: done."
