#!/usr/bin/env bash
# record.sh — records the reference Slurm's answers to every case in cases.txt (each command's
# --help, --usage and option errors) under testdata/, for the differential test in this
# folder. Each command runs under its own name (argv[0]) as the Go test runs Orbit's. It
# changes nothing on the reference. Needs SLURM_CONF pointing at the reference (task/none).
set -euo pipefail
cd "$(dirname "$0")"
: "${SLURM_CONF:?SLURM_CONF must point at the reference slurm.conf}"
SLURM_BIN=${SLURM_BIN:-/usr/bin}
out=testdata
mkdir -p "$out"
while IFS=$'\t' read -r name args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	eval "set -- $args"
	envs=() # leading NAME=VALUE words: the command's environment
	while [[ $# -gt 1 && "$1" == *=* ]]; do
		envs+=("$1")
		shift
	done
	cmd=$1
	shift
	rc=0
	env "${envs[@]}" bash -c 'exec -a "$0" "$@"' "$cmd" "$SLURM_BIN/$cmd" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null || rc=$?
	echo "$rc" >"$out/$name.rc"
done <cases.txt
echo "recorded $(ls "$out"/*.rc | wc -l) cases"
