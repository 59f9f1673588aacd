#!/usr/bin/env bash
# record.sh: records the reference Slurm's sbatch/srun/salloc --test-only for the
# differential test in this folder (testonly_test.go): every line of cases.txt runs once
# against the reference (invoked by its plain name, as the Go test invokes Orbit's), and its
# stdout, stderr and exit status go to testdata/NAME.{out,err,rc}. --test-only submits
# nothing, so the shared reference is left as it was (it uses up job ids, as it always does).
# Needs /tmp/slurm-anchor/env.sh or SLURM_CONF pointing at the reference.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC1091
[ -n "${SLURM_CONF:-}" ] || source /tmp/slurm-anchor/env.sh
bin=${SLURM_BIN:-/usr/bin}
work=$(mktemp -d /tmp/tto.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
while IFS=$'\t' read -r name cmd args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	eval "set -- $args"
	rc=0
	bash -c 'exec -a "$0" "$1" "${@:2}"' "$cmd" "$bin/$cmd" "$@" \
		>"$here/testdata/$name.out" 2>"$here/testdata/$name.err" </dev/null || rc=$?
	echo "$rc" >"$here/testdata/$name.rc"
done <"$here/cases.txt"
