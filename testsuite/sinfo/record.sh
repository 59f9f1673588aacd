#!/usr/bin/env bash
# record.sh — records the reference Slurm's sinfo for the differential test in this folder.
#
# Runs every line of cases.txt against the reference (invoked as "sinfo", as the Go test
# invokes Orbit's), storing stdout, stderr and the exit status under testdata/. The
# reference's one node is shared, so its CPU allocation moves with other people's jobs: the
# script records how many CPUs were allocated (testdata/alloc.txt; the Go test allocates as
# many on its Orbit node) and records again until the allocation held still for the whole
# run. So that the recording shows a partly allocated (MIXED) node whatever others run, it
# holds one 2-CPU job of its own (named sinfo_rec_hold) while recording and cancels exactly
# that job at the end. It changes no node or partition state. Needs SLURM_CONF pointing at
# the reference.
set -euo pipefail
cd "$(dirname "$0")"
: "${SLURM_CONF:?SLURM_CONF must point at the reference slurm.conf}"
SINFO=${SINFO:-/usr/bin/sinfo}
SCONTROL=${SCONTROL:-/usr/bin/scontrol}
SBATCH=${SBATCH:-/usr/bin/sbatch}
SQUEUE=${SQUEUE:-/usr/bin/squeue}
SCANCEL=${SCANCEL:-/usr/bin/scancel}
out=testdata

hold=$("$SBATCH" --parsable -J sinfo_rec_hold -n 2 -o /dev/null --wrap 'sleep 600')
hold=${hold%%;*}
trap '"$SCANCEL" "$hold" 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do
	[ "$("$SQUEUE" -h -j "$hold" -o %T)" = RUNNING ] && break
	sleep 1
done

alloc() { # the node's CPUAlloc, or "busy" while it is in any state but IDLE/MIXED/ALLOCATED
	local line
	line=$("$SCONTROL" show node -o n1)
	case "$line" in
	*" State=IDLE "* | *" State=MIXED "* | *" State=ALLOCATED "*) ;;
	*) echo busy; return ;;
	esac
	sed -E 's/.* CPUAlloc=([0-9]+) .*/\1/' <<<"$line"
}

for try in $(seq 1 20); do
	before=$(alloc)
	if [ "$before" = busy ]; then sleep 3; continue; fi
	rm -rf "$out"
	mkdir -p "$out"
	while IFS=$'\t' read -r name env args; do
		[[ -z "$name" || "$name" == \#* ]] && continue
		eval "set -- $args"
		envs=()
		[ "$env" != "-" ] && envs=("$env")
		rc=0
		env -u SINFO_FORMAT -u SINFO_SORT -u SINFO_PARTITION -u SINFO_ALL "${envs[@]}" \
			bash -c 'exec -a sinfo "$0" "$@"' "$SINFO" "$@" \
			>"$out/$name.out" 2>"$out/$name.err" || rc=$?
		echo "$rc" >"$out/$name.rc"
	done <cases.txt
	after=$(alloc)
	if [ "$before" = "$after" ]; then
		echo "$before" >"$out/alloc.txt"
		echo "recorded $(ls "$out"/*.rc | wc -l) cases with $before CPUs allocated on the reference node"
		exit 0
	fi
	sleep 2
done
echo "record.sh: the reference's node never held still; try again later" >&2
exit 1
