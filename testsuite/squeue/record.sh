#!/usr/bin/env bash
# record.sh — records the reference Slurm's squeue for the differential test in this folder.
#
# Holds three jobs of its own on the reference (a running batch job with one srun step, a
# held job and a held 3-task array, all named h4q_*; every case filters by those names or
# ids, so other people's jobs never show), runs every line of cases.txt against the
# reference (invoked as "squeue", as the Go test invokes Orbit's) and stores stdout, stderr
# and the exit status under testdata/. The three ids must be consecutive (the Go test
# recreates them with FirstJobId); the script submits again until they are. It cancels
# exactly its own jobs at the end. Needs SLURM_CONF pointing at the reference.
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
	R=$("$SBATCH" --parsable -J h4q_run -o /dev/null --wrap 'srun -J h4q_step sleep 600; sleep 600')
	H=$("$SBATCH" --parsable -J h4q_held -H -t 10 -o /dev/null --wrap 'sleep 600')
	A=$("$SBATCH" --parsable -J h4q_arr -H --array=1-3 -o /dev/null --wrap 'sleep 600')
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
	env -u SQUEUE_FORMAT -u SQUEUE_FORMAT2 -u SQUEUE_SORT -u SQUEUE_STATES -u SQUEUE_NAMES \
		-u SQUEUE_USERS -u SQUEUE_ALL -u SQUEUE_PARTITION "${envs[@]}" \
		bash -c 'exec -a squeue "$0" "$@"' "$SQUEUE" "$@" \
		>"$out/$name.out" 2>"$out/$name.err" || rc=$?
	echo "$rc" >"$out/$name.rc"
done <cases.txt
echo "recorded $(ls "$out"/*.rc | wc -l) cases (jobs $R $H $A)"
