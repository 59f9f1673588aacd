#!/usr/bin/env bash
# record.sh — records the reference Slurm's scancel for the differential test in this folder.
#
# Submits three jobs of its own (named h4c_*: a running batch job whose script runs one srun
# step, a held job and a held 3-task array) with consecutive ids (the Go test recreates them
# with FirstJobId), then runs every line of cases.txt in order against the reference
# (invoked as "scancel", as the Go test invokes Orbit's), storing stdout, stderr and the exit
# status under testdata/. The cases act only on those three ids, on names no one else uses,
# or on an id far beyond the reference's counter. It cancels exactly its own jobs at the end.
# Needs SLURM_CONF pointing at the reference.
set -euo pipefail
cd "$(dirname "$0")"
: "${SLURM_CONF:?SLURM_CONF must point at the reference slurm.conf}"
SQUEUE=${SQUEUE:-/usr/bin/squeue}
SBATCH=${SBATCH:-/usr/bin/sbatch}
SCANCEL=${SCANCEL:-/usr/bin/scancel}
out=testdata
jobs=()
cleanup() { [ ${#jobs[@]} -gt 0 ] && "$SCANCEL" "${jobs[@]}" 2>/dev/null || true; }
trap cleanup EXIT

for try in $(seq 1 10); do
	R=$("$SBATCH" --parsable -J h4c_run -o /dev/null --wrap 'srun -J h4c_step sleep 600; sleep 600')
	H=$("$SBATCH" --parsable -J h4c_held -H -o /dev/null --wrap 'sleep 600')
	A=$("$SBATCH" --parsable -J h4c_arr -H --array=1-3 -o /dev/null --wrap 'sleep 600')
	jobs+=("$R" "$H" "$A")
	[ "$H" = $((R + 1)) ] && [ "$A" = $((R + 2)) ] && break
	cleanup
	jobs=()
done
for _ in $(seq 1 60); do
	[ -n "$("$SQUEUE" -h -s "$R.0" -o %i)" ] && break
	sleep 1
done
echo "$R" >"$out/first_job_id.txt"

while IFS=$'\t' read -r name env args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	args=${args//\{R\}/$R}
	args=${args//\{H\}/$H}
	args=${args//\{A\}/$A}
	eval "set -- $args"
	envs=()
	[ "$env" != "-" ] && envs=("$env")
	rc=0
	env -u SCANCEL_VERBOSE -u SCANCEL_STATE -u SCANCEL_USER -u SCANCEL_NAME "${envs[@]}" \
		bash -c 'exec -a scancel "$0" "$@"' "$SCANCEL" "$@" \
		>"$out/$name.out" 2>"$out/$name.err" </dev/null || rc=$?
	echo "$rc" >"$out/$name.rc"
	sleep 1 # let the controller act on a cancel before the next case looks
done <cases.txt
echo "recorded $(ls "$out"/*.rc | wc -l) cases (jobs $R $H $A)"
