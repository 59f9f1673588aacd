#!/usr/bin/env bash
# bench.sh: runs every Go benchmark for BENCHTIME (default 2s) and prints each figure as a
# `package/Benchmark: value unit` line, the project's stable benchmark format. The cluster
# benchmarks run for minutes each (100,000 jobs, 20,000 nodes), hence the long timeout.
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCHTIME=${BENCHTIME:-2s}
go test -timeout 90m -run '^$' -bench . -benchmem -benchtime "$BENCHTIME" ./... 2>&1 | tee /tmp/orbit-bench.$$ |
  awk '
    /^pkg: / { pkg=$2; sub(/.*\//, "", pkg) }
    /^Benchmark/ {
      name=$1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name); name=pkg "/" name
      for (i = 3; i < NF; i += 2) {
        v=$i; u=$(i+1)
        if (u == "ns/op") { printf "%s: %.4g ms\n", name, v/1e6 }
        else if (u == "B/op") { printf "%s_alloc: %d B\n", name, v }
        else if (u == "allocs/op") { printf "%s_allocs: %d allocs\n", name, v }
        else { printf "%s_%s: %s %s\n", name, u, v, u }
      }
    }
    /^(FAIL|panic|---)/ { print > "/dev/stderr" }'
status=${PIPESTATUS[0]}
rm -f /tmp/orbit-bench.$$
exit "$status"
