#!/usr/bin/env bash
# bench.sh: runs every Go benchmark once (BENCHTIME, default 1x... see below) and prints each as
# `name: value unit` lines, the project's stable benchmark format.
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCHTIME=${BENCHTIME:-2s}
go test -run '^$' -bench . -benchmem -benchtime "$BENCHTIME" ./... 2>&1 | tee /tmp/orbit-bench.$$ |
  awk '
    /^Benchmark/ {
      name=$1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
      for (i = 3; i < NF; i += 2) {
        v=$i; u=$(i+1)
        if (u == "ns/op") { printf "%s: %.3f ms\n", name, v/1e6 }
        else if (u == "B/op") { printf "%s_alloc: %d B\n", name, v }
        else if (u == "allocs/op") { printf "%s_allocs: %d allocs\n", name, v }
        else { printf "%s_%s: %s %s\n", name, u, v, u }
      }
    }
    /^(FAIL|panic|---)/ { print > "/dev/stderr" }'
status=${PIPESTATUS[0]}
rm -f /tmp/orbit-bench.$$
exit "$status"
