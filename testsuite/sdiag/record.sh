#!/usr/bin/env bash
# record.sh — records the reference Slurm's sdiag for the differential test in this folder.
#
# Runs every line of cases.txt against the reference (invoked as "sdiag", as the Go test
# invokes Orbit's) and stores stdout, stderr and the exit status under testdata/. Statistics
# reports are stored normalised by normalise.sed: values differ between any two controllers,
# so the test compares the report's line structure (every line, its labels and layout) with
# numbers, dates and the varying per-RPC lines reduced to placeholders. It changes nothing on
# the reference (no -r). Needs SLURM_CONF pointing at the reference.
set -euo pipefail
cd "$(dirname "$0")"
: "${SLURM_CONF:?SLURM_CONF must point at the reference slurm.conf}"
SDIAG=${SDIAG:-/usr/bin/sdiag}
out=testdata
mkdir -p "$out"
while IFS=$'\t' read -r name args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	eval "set -- $args"
	rc=0
	set +o pipefail
	bash -c 'exec -a sdiag "$0" "$@"' "$SDIAG" "$@" 2>"$out/$name.err" </dev/null |
		if grep -q '^help\|^usage\|^bad_' <<<"$name"; then cat; else sed -E -f normalise.sed | uniq; fi >"$out/$name.out"
	rc=${PIPESTATUS[0]}
	set -o pipefail
	echo "$rc" >"$out/$name.rc"
done <cases.txt
echo "recorded $(ls "$out"/*.rc | wc -l) cases"
