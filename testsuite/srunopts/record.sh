#!/usr/bin/env bash
# record.sh — records the reference Slurm's srun for every case in cases.txt under testdata/
# (stdout, stderr, exit status), for the differential test in this folder. srun runs under
# its own name outside any allocation, from a scratch directory, with the SLURM_* variables
# of the calling shell removed. The reference must be idle (no pending jobs): srun's "job N
# queued and waiting" notes would otherwise join the recording. Needs SLURM_CONF pointing at
# the reference.
set -euo pipefail
cd "$(dirname "$0")"
: "${SLURM_CONF:?SLURM_CONF must point at the reference slurm.conf}"
SRUN=${SRUN:-/usr/bin/srun}
out=$PWD/testdata
mkdir -p "$out"
work=$(mktemp -d /tmp/srunopts.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Scripts the cases name as testdata/scripts/...: the Go test runs srun from this folder.
mkdir -p "$work/testdata" && cp -r testdata/scripts "$work/testdata/"
while IFS=$'\t' read -r name args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	eval "set -- $args"
	rc=0
	(cd "$work" && env $(env | sed -n 's/^\(SLURM_[A-Z_]*\)=.*/-u \1/p' | grep -v SLURM_CONF) \
		bash -c 'exec -a srun "$0" "$@"' "$SRUN" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null) || rc=$?
	echo "$rc" >"$out/$name.rc"
done <cases.txt
echo "recorded $(ls "$out"/*.rc | wc -l) cases"
