#!/bin/bash
# Long fuzzing runs by hand, spread over several processes (issue-level
# "10 million executions" runs): every process fuzzes its own copy of the
# committed seeds with its own -seed, all of them write new inputs to one
# shared corpus directory, and the script sums the executions each
# process reports.
#
# Usage: scripts/fuzz-long.sh FUZZ_BIN_DIR TARGET PROCS RUNS_PER_PROC [SECONDS]
#   FUZZ_BIN_DIR  directory holding fuzz_<target> (an ONEDNN_BUILD_FUZZERS build)
#   TARGET        memory_desc | primitive_desc | reorder | env | cache_blob
#   PROCS         processes (one per core)
#   RUNS_PER_PROC -runs of each process
#   SECONDS       -max_total_time of each process (default 540)
# Findings (crash-*, leak-*, timeout-*, oom-*) are left in
# $OUT_DIR (default ./fuzz-out)/TARGET/; the exit status is 1 if any.
set -u
bin_dir=$1 target=$2 procs=$3 runs=$4 secs=${5:-540}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-$PWD/fuzz-out}/$target
mkdir -p "$out/corpus" "$out/logs"
seeds=$root/tests/fuzz/corpus/$target
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
for p in $(seq 1 "$procs"); do
    (cd "$out" && "$bin_dir/fuzz_$target" -seed=$((1000 + p)) -runs="$runs" \
        -max_total_time="$secs" -timeout=60 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$out/" \
        corpus "$seeds" > "logs/$p.log" 2>&1) &
done
wait
total=0
for p in $(seq 1 "$procs"); do
    n=$(grep -o "stat::number_of_executed_units: [0-9]*" "$out/logs/$p.log" \
        | awk '{print $2}')
    total=$((total + ${n:-0}))
done
findings=$(ls "$out" | grep -cE '^(crash|leak|timeout|oom|slow-unit)-')
echo "fuzz_$target: $total executions in $procs processes, $findings findings"
[ "$findings" -eq 0 ]
