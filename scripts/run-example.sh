#!/usr/bin/env bash
# Fresh machine to running example in one command: installs the Debian
# dependencies, configures (examples on, tests off), builds the library and
# examples/getting_started.cpp with every core, and runs it.
# Usage: scripts/run-example.sh [cpu|gpu]     Env: BUILD_DIR, JOBS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

"$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DONEDNN_BUILD_EXAMPLES=ON -DONEDNN_BUILD_TESTS=OFF
cmake --build "$build" -j "$jobs" --target getting_started
exec "$build/examples/getting_started" "$@"
