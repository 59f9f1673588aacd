#!/usr/bin/env bash
# record.sh — records the reference Slurm's salloc for the differential test in this folder.
#
# Runs every line of cases.txt against the reference (invoked as "salloc", as the Go test
# invokes Orbit's) with a job name of its own (h5rec-salloc) so that its allocations are
# recognisable; each allocation is released by salloc itself when the command ends. Stores
# stdout (for env_* cases only the sorted names of the SLURM_* variables), stderr and the exit
# status under testdata/, job ids replaced by JOBID. Needs SLURM_CONF pointing at the
# reference.
set -euo pipefail
cd "$(dirname "$0")"
: "${SLURM_CONF:?SLURM_CONF must point at the reference slurm.conf}"
SALLOC=${SALLOC:-/usr/bin/salloc}
out=testdata
mkdir -p "$out"
while IFS=$'\t' read -r name args; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	eval "set -- $args"
	rc=0
	if [[ "$name" == env_* ]]; then
		set +o pipefail
		env -u SALLOC_PARTITION -u SLURM_JOB_ID -u SLURM_JOBID \
			bash -c 'exec -a salloc "$0" "$@"' "$SALLOC" -J h5rec-salloc "$@" env \
			2>"$out/$name.err" </dev/null | { grep -o '^SLURM_[A-Z_]*' || true; } | sort >"$out/$name.out"
		rc=${PIPESTATUS[0]}
		set -o pipefail
	else
		env -u SLURM_JOB_ID -u SLURM_JOBID \
			bash -c 'exec -a salloc "$0" "$@"' "$SALLOC" -J h5rec-salloc "$@" \
			>"$out/$name.out" 2>"$out/$name.err" </dev/null || rc=$?
	fi
	# "Job allocation N has been revoked." races with "Relinquishing" on the reference (the
	# controller's job-complete message may arrive first); it is not part of the contract.
	sed -E -i -e 's/(allocation|job) [0-9]+/\1 JOBID/g' -e '/has been revoked\.$/d' "$out/$name.err"
	echo "$rc" >"$out/$name.rc"
done <cases.txt
echo "recorded $(ls "$out"/*.rc | wc -l) cases"
