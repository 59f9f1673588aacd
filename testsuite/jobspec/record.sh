#!/bin/bash
# Records the golden files of the job-spec differential test from the live reference Slurm:
# every case of testdata/cases.txt is submitted held (-H) from a scratch directory with a
# clean environment; sbatch's exit status, stdout and stderr, and `scontrol show job -o` of
# the job it created are written to testdata/golden/<case>.txt, then exactly that job is
# cancelled. The scratch directory, the job id and the user are normalised.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SLURM_CONF:?SLURM_CONF must name the reference slurm.conf}"
SBATCH=${SBATCH:-/usr/bin/sbatch}
SCONTROL=${SCONTROL:-/usr/bin/scontrol}
SCANCEL=${SCANCEL:-/usr/bin/scancel}
golden=$here/testdata/golden
mkdir -p "$golden"
work=$(mktemp -d /tmp/orbitjs.XXXXXX)
trap 'rm -rf "$work"' EXIT
user=$(id -un)

while IFS='|' read -r name script envs args sargs; do
	[[ -z $name || $name == \#* ]] && continue
	cp "$here/testdata/scripts/orbitjs_$script.sh" "$work/"
	out=$work/out err=$work/err
	# shellcheck disable=SC2086 # envs, args and sargs are word lists on purpose
	set +e
	(cd "$work" && env -i PATH=/usr/bin:/bin HOME=/root SLURM_CONF="$SLURM_CONF" $envs \
		"$SBATCH" -H $args "orbitjs_$script.sh" $sargs >"$out" 2>"$err")
	rc=$?
	set -e
	id=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$out")
	show=""
	if [[ -n $id ]]; then
		show=$("$SCONTROL" show job -o "$id" | head -n 1)
		"$SCANCEL" "$id"
	fi
	norm() { perl -pe "s#(?<![0-9])$id(?![0-9])#\@ID\@#g" | sed -e "s#$work#@CWD@#g" -e "s#=$user(#=@USER@(#g" -e "s#_${user}_#_@USER@_#g"; }
	{
		echo "rc=$rc"
		echo "--- stdout"
		if [[ -n $id ]]; then norm <"$out"; else cat "$out"; fi
		echo "--- stderr"
		sed -e "s#$work#@CWD@#g" "$err"
		echo "--- show"
		if [[ -n $id ]]; then printf '%s\n' "$show" | norm; fi
	} >"$golden/$name.txt"
	rm -f "$work/orbitjs_$script.sh"
done <"$here/testdata/cases.txt"
echo "recorded $(ls "$golden" | wc -l) cases into $golden"
