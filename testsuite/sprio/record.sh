#!/usr/bin/env bash
# record.sh — records the reference Slurm's sprio for the differential test in this folder.
#
# Runs every line of cases.txt against the reference (invoked as "sprio", as the Go test
# invokes Orbit's) and stores stdout, stderr and the exit status under testdata/. The
# reference runs priority/basic, so sprio never reaches the controller: these are the
# refusal, the informational options and the option errors. It changes nothing on the
# reference. Needs SLURM_CONF pointing at the reference.
set -euo pipefail
cd "$(dirname "$0")"
: "${SLURM_CONF:?SLURM_CONF must point at the reference slurm.conf}"
SPRIO=${SPRIO:-/usr/bin/sprio}
out=testdata
mkdir -p "$out"
while IFS=$'\t' read -r name args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	eval "set -- $args"
	rc=0
	env -u SPRIO_FORMAT bash -c 'exec -a sprio "$0" "$@"' "$SPRIO" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null || rc=$?
	echo "$rc" >"$out/$name.rc"
done <cases.txt
echo "recorded $(ls "$out"/*.rc | wc -l) cases"
