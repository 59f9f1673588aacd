#!/usr/bin/env bash
# record.sh: records the reference Slurm's `scontrol show step` and hold/release by job
# name for the differential test in this folder (live_test.go). Submits three jobs of its
# own (named qst-*): R runs one 2-task srun step in a 3-CPU allocation, S one 1-task step in
# a 2-CPU allocation, H is held, A is a held 4-task array; waits until both steps run, runs
# every line of cases.txt in order (scontrol, or squeue for lines starting "squeue "),
# stores stdout, stderr and exit status under testdata/ with the job ids written as {R},
# {S}, {H} and {A} and the recording's name tag as {U} (the Go test writes Orbit's the same
# way), and cancels exactly its own
# jobs. Needs /tmp/slurm-anchor/env.sh or SLURM_CONF pointing at the reference.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC1091
[ -n "${SLURM_CONF:-}" ] || source /tmp/slurm-anchor/env.sh
bin=${SLURM_BIN:-/usr/bin}
work=$(mktemp -d /tmp/qst.XXXXXX)
jobs=()
trap '[ ${#jobs[@]} -gt 0 ] && "$bin/scancel" "${jobs[@]}" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
R=$("$bin/sbatch" --parsable -J qst-run -n3 -t 10 -o /dev/null --wrap 'srun -J qst-a -n2 sleep 300')
jobs+=("$R")
# Jobs named by the name cases carry a tag of this recording: the reference keeps ended jobs
# (earlier recordings' included) for MinJobAge, and Name= matches them too.
U=$(printf %s "$RANDOM$RANDOM" | tr 0-9 a-j)
S=$("$bin/sbatch" --parsable -J "qst-one-$U" -n2 -t 10 -o /dev/null --wrap 'srun -J qst-b -n1 sleep 300')
jobs+=("$S")
H=$("$bin/sbatch" --parsable -J "qst-held-$U" -H -o /dev/null --wrap true)
jobs+=("$H")
A=$("$bin/sbatch" --parsable -J qst-arr -H --array=1-4 -t 10 -o /dev/null --wrap true)
jobs+=("$A")
for _ in $(seq 60); do
	n=$("$bin/squeue" -h -s -j "$R,$S" -o %i | grep -c '\.0$' || true)
	[ "$n" = 2 ] && break
	sleep 1
done
[ "$n" = 2 ] || { echo "record.sh: the steps never started" >&2; exit 1; }
while IFS=$'\t' read -r name args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	args=${args//\{R\}/$R}
	args=${args//\{S\}/$S}
	args=${args//\{H\}/$H}
	args=${args//\{A\}/$A}
	args=${args//\{U\}/$U}
	cmd=scontrol
	case "$args" in squeue\ *) cmd=squeue args=${args#squeue } ;; esac
	rc=0
	eval "set -- $args"
	"$bin/$cmd" "$@" >"$here/testdata/$name.out" 2>"$here/testdata/$name.err" </dev/null || rc=$?
	echo "$rc" >"$here/testdata/$name.rc"
	perl -pi -e "s/(?<!\\d)$R(?!\\d)/{R}/g; s/(?<!\\d)$S(?!\\d)/{S}/g; s/(?<!\\d)$H(?!\\d)/{H}/g; s/(?<!\\d)$A(?!\\d)/{A}/g; s/-$U\\b/-{U}/g" \
		"$here/testdata/$name.out" "$here/testdata/$name.err"
done <"$here/cases.txt"
