#!/bin/bash
# Records what the reference Slurm (22.05) srun does with per-task I/O and step-control
# options (-o/-e/-i patterns, none, task numbers, -l, -u, -K, --multi-prog), one golden per
# line of cases.txt (name|stdin|srun arguments..., "|"-separated; stdin "-" is none, "\n" a
# newline). Each case runs in its own empty directory holding the *.conf files; the golden is
# srun's exit code, its stdout and stderr lines, and every file the case created with its
# lines. Lines are sorted (tasks run concurrently); the job id becomes JOB, the user USER,
# the host HOST, times TIME, and srun's "queued"/"allocated" notes (a busy reference) are
# dropped. testsuite/e2e/srun_test.go (TestSrun_TaskIO) builds the same text from Orbit's srun.
# Needs the live reference (SLURM_CONF set): srun/testdata/taskio/record.sh
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
work=$(mktemp -d /tmp/orbit-taskio-record.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
user=$(id -un)
host=$(hostname -s)
sortlines() { LC_ALL=C sort; }
while IFS='|' read -r -a f; do
	name=${f[0]} stdin=${f[1]}
	args=("${f[@]:2}")
	dir=$work/$name
	mkdir -p "$dir" && cp "$here"/*.conf "$dir"/
	jobname=srtio-$name
	set +e
	if [ "$stdin" = - ]; then
		(cd "$dir" && /usr/bin/srun -J "$jobname" "${args[@]}" </dev/null >"$work/$name.stdout" 2>"$work/$name.stderr")
	else
		(cd "$dir" && printf '%b' "$stdin" | /usr/bin/srun -J "$jobname" "${args[@]}" >"$work/$name.stdout" 2>"$work/$name.stderr")
	fi
	rc=$?
	set -e
	# The newest job of that name (squeue keeps ended jobs for MinJobAge).
	id=$(/usr/bin/squeue -h -t all -n "$jobname" -o %i | sort -n | tail -1)
	norm() {
		perl -pe "s/(?<![0-9])\Q${id:-NOJOB}\E(?![0-9])/JOB/g; s/\Q$user\E/USER/g; s/\Q$host\E/HOST/g;" \
			-e 's/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/TIME/g'
	}
	{
		echo "rc=$rc"
		echo "--- stdout"
		norm <"$work/$name.stdout" | sortlines
		echo "--- stderr"
		grep -v -e 'queued and waiting for resources' -e 'has been allocated resources' "$work/$name.stderr" | norm | sortlines || true
		for p in $(cd "$dir" && ls | LC_ALL=C sort); do
			case $p in *.conf) continue ;; esac
			echo "--- file $(echo "$p" | norm)"
			norm <"$dir/$p" | sortlines
		done
	} >"$here/$name.golden"
done <cases.txt
echo "recorded $(wc -l <cases.txt) cases in $here"
