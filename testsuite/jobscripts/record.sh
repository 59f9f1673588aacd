#!/bin/bash
# Records the goldens of the job-script test from the live reference Slurm (one node).
# Every case of cases.txt is submitted from its own scratch directory (the script, data/ and
# previous.log: see fixture) with a small fixed environment (submit), all cases at once; then
# each job (every task of an array) is waited for, boundedly, and testdata/<case>/ receives
# RAW values:
#   sbatch.rc, sbatch.stdout, sbatch.stderr  what sbatch printed and its exit status
#   state        one line per job record: "ArrayTaskId=… JobState=… ExitCode=…" (sorted)
#   meta         jobid=, taskjobids= (array tasks' own ids), submitdir=
#   files.txt    every file in the scratch directory after the job except the script, sorted
#   files/…      each of those files' contents
# The reference has no accounting (sacct says storage is disabled), so the final state comes
# from `scontrol show job`, which keeps finished jobs for MinJobAge (300 s there).
# Nothing is normalised here: jobscripts_test.go normalises both sides with one function.
# A case without a script (--wrap) passes none.
# Usage: record.sh [case...]   (default: every case)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SLURM_CONF:?SLURM_CONF must name the reference slurm.conf}"
SBATCH=${SBATCH:-/usr/bin/sbatch}
SCONTROL=${SCONTROL:-/usr/bin/scontrol}
work=$(mktemp -d /tmp/orbitjobscripts.XXXXXX)
trap 'rm -rf "$work"' EXIT

# fixture fills a scratch directory as jobscripts_test.go's fixture does.
fixture() {
	mkdir -p "$1/data"
	printf 'alpha\nbeta\ngamma\n' >"$1/data/input.txt"
	printf 'line from an earlier run\n' >"$1/previous.log"
}

# submit runs sbatch in directory $1 with the case's resource limits (array lim, the ulimit
# field), the fixed environment (jobscripts_test.go's submitEnv has the same names) and the
# case's own variables (array extra).
submit() {
	local dir=$1
	shift
	(cd "$dir" && { ((${#lim[@]} == 0)) || ulimit "${lim[@]}"; } && env -i PATH=/usr/bin:/bin HOME="$HOME" USER="$(id -un)" LOGNAME="$(id -un)" \
		SHELL=/bin/bash LANG=C MYSITE_VAR=from_login OTHER_VAR=other SLURM_CONF="$SLURM_CONF" ${extra[@]+"${extra[@]}"} \
		"$SBATCH" "$@")
}

# finished is true when no record of job $1 is pending or active.
finished() {
	! "$SCONTROL" show job "$1" | grep -Eq 'JobState=(PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED)'
}

declare -A jobs
want=("$@")
while IFS='|' read -r name script opts args envs ulim; do
	[[ -z $name || $name == \#* ]] && continue
	if ((${#want[@]})) && [[ " ${want[*]} " != *" $name "* ]]; then continue; fi
	dir=$work/$name
	fixture "$dir"
	[[ -z $script ]] || cp -p "$here/scripts/$script" "$dir/"
	out=$here/testdata/$name
	rm -rf "$out"
	mkdir -p "$out"
	eval "o=($opts)"
	eval "a=($args)"
	eval "v=(${envs:-})"
	set +e
	extra=(${v[@]+"${v[@]}"})
	eval "lim=(${ulim:-})"
	submit "$dir" ${o[@]+"${o[@]}"} ${script:+"$script"} ${a[@]+"${a[@]}"} >"$out/sbatch.stdout" 2>"$out/sbatch.stderr"
	echo $? >"$out/sbatch.rc"
	set -e
	id=$(grep -Eo '^(Submitted batch job )?[0-9]+' "$out/sbatch.stdout" | grep -Eo '[0-9]+$' || true)
	jobs[$name]=$id
	if [[ -n $id ]] && ((id < 100)); then
		# Normalize replaces every number equal to a job id; a small id may equal a number a
		# script prints, which would then read as a difference in the test.
		echo "record.sh: warning: job id $id of $name is small; re-record if the test reports a number" >&2
	fi
	echo "$name: job ${id:-none}"
done <"$here/cases.txt"

deadline=$((SECONDS + 300))
for name in "${!jobs[@]}"; do
	id=${jobs[$name]}
	out=$here/testdata/$name
	dir=$work/$name
	if [[ -n $id ]]; then
		until finished "$id"; do
			if ((SECONDS > deadline)); then
				echo "record.sh: job $id ($name) did not finish in time" >&2
				exit 1
			fi
			sleep 1
		done
		show=$("$SCONTROL" show job -o "$id")
		# One line per job record; "-" for a job that is no array task.
		awk '{ t = "-"; s = ""; e = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^ArrayTaskId=/) t = substr($i, 13)
				if ($i ~ /^JobState=/) s = $i
				if ($i ~ /^ExitCode=/) e = $i
			}
			print "ArrayTaskId=" t " " s " " e }' <<<"$show" | LC_ALL=C sort >"$out/state"
		tasks=$(grep -Eo '^JobId=[0-9]+' <<<"$show" | cut -d= -f2 | grep -vx "$id" | sort -n | tr '\n' ' ' || true)
	else
		: >"$out/state"
		tasks=""
	fi
	printf 'jobid=%s\ntaskjobids=%s\nsubmitdir=%s\nhost=%s\n' "$id" "${tasks% }" "$dir" "$(hostname -s)" >"$out/meta"
	script=$(grep "^$name|" "$here/cases.txt" | cut -d'|' -f2)
	(cd "$dir" && find . -type f | sed 's#^\./##' | grep -vxF "${script:-/}" | LC_ALL=C sort) >"$out/files.txt"
	while read -r f; do
		mkdir -p "$(dirname "$out/files/$f")"
		cp "$dir/$f" "$out/files/$f"
	done <"$out/files.txt"
done
echo "recorded ${#jobs[@]} cases into $here/testdata"
