#!/usr/bin/env bash
# record-compat.sh: re-records every golden file from a live reference Slurm 22.05
# (../shared/reference-slurm/up.sh is run when none is up; root needed for sbatch -H).
# Each area keeps its own recorder: testsuite/<area>/record.sh, or, for goldens that belong to
# one package, a record.sh anywhere under that package's testdata/ (srun/testdata/record.sh,
# srun/testdata/taskio/record.sh, slurmd/slurmstepd/testdata/record.sh, ...). Every recorder is
# found by name, so a new one needs no edit here. Stops at the first recorder that fails and
# names it. RECORD_ONLY=a,b records only the recorders whose path contains one of the words.
set -euo pipefail
cd "$(dirname "$0")/../.."
REF=${REF_DIR:-../shared/reference-slurm}
[ -f /tmp/slurm-anchor/env.sh ] || "$REF/up.sh" 1
# shellcheck disable=SC1091
source /tmp/slurm-anchor/env.sh
mapfile -t recorders < <(
	{
		ls testsuite/*/record.sh 2>/dev/null
		find . -path ./.git -prune -o -path '*/testdata/*' -name record.sh -type f -print | sed 's#^\./##'
	} | LC_ALL=C sort -u
)
n=0
for rec in "${recorders[@]}"; do
	if [ -n "${RECORD_ONLY:-}" ]; then
		match=
		IFS=, read -r -a only <<<"$RECORD_ONLY"
		for w in "${only[@]}"; do [[ $rec == *"$w"* ]] && match=1; done
		[ -n "$match" ] || continue
	fi
	echo "record-compat: $rec"
	if ! bash "$rec"; then
		echo "record-compat: $rec failed" >&2
		exit 1
	fi
	n=$((n + 1))
done
echo "record-compat: $n recorders ran"
