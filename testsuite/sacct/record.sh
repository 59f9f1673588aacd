#!/usr/bin/env bash
# Records the reference sacct's stdout, stderr and exit status for each line of
# testdata/cases.txt (its arguments, split on spaces) into testdata/golden/NN.{out,err,rc}.
# The reference runs accounting_storage/none, like testdata/slurm.conf; its program path in
# getopt's messages is normalised to "sacct". Needs the live reference (source its env.sh).
set -euo pipefail
cd "$(dirname "$0")"
source /tmp/slurm-anchor/env.sh
mkdir -p testdata/golden
n=0
while IFS= read -r line; do
	[[ -z "$line" ]] && continue
	n=$((n + 1))
	f=$(printf 'testdata/golden/%02d' "$n")
	# shellcheck disable=SC2086
	set +e
	/usr/bin/sacct $line >"$f.out" 2>"$f.err"
	echo $? >"$f.rc"
	set -e
	sed -i 's#^/usr/bin/sacct:#sacct:#' "$f.out" "$f.err"
	printf '%s\n' "$line" >"$f.args"
done <testdata/cases.txt
