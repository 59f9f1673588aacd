#!/usr/bin/env bash
# record.sh: runs the issue-5 scenario (testdata/scenario.txt) against the live reference
# Slurm with its own commands (/usr/bin) and stores every capture, normalised as the Go test
# normalises (Normalise in normalise.go), under testdata/reference/. The orbit-only lines
# (draining the shared node) are never run here. Jobs are named scn-*; the recorder cancels
# exactly those it submitted. Takes about three minutes (one job must time out).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC1091
[ -n "${SLURM_CONF:-}" ] || source /tmp/slurm-anchor/env.sh
cd "$here"
tmp=$(mktemp -d /tmp/scn-goldens.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The recorder exits 2 when the shared reference disturbed the run (other people's jobs on
# the node, ids crossing a power of ten): try again, a bounded number of times.
for attempt in 1 2 3; do
	rc=0
	go run ./recorder -bin "${SLURM_BIN:-/usr/bin}" -out "$tmp/reference" || rc=$?
	[ "$rc" = 2 ] || break
	echo "record.sh: attempt $attempt disturbed by the shared reference; trying again" >&2
	sleep 30
done
[ "$rc" = 0 ] || exit "$rc"
# Replace the goldens only after a complete recording.
rm -rf testdata/reference
cp -r "$tmp/reference" testdata/reference
