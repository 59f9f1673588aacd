#!/bin/bash
# Records each scenario testdata/NAME.txt (or only those named as arguments) on the
# reference Slurm into testdata/NAME.golden: the sequence of distinct squeue states (job
# letter, state, pending reason) of the scenario's jobs while they are pending or running,
# then their start order. Needs the reference (source /tmp/slurm-anchor/env.sh); the
# backfill scenario takes about two minutes. Jobs are named zzsched-<pid>-<letter>; only
# they are looked at and cancelled.
#
# A snapshot where a pending job has reason None is skipped: the job was just submitted and
# no scheduler has looked at it yet (its length depends on timing, not on the scheduler).
# The reference's node is shared: the recording is refused (the golden is left as it was) if
# any other job is pending or running before or during it.
set -u
cd "$(dirname "$0")"
: "${SLURM_CONF:?source /tmp/slurm-anchor/env.sh first}"
prefix="zzsched-$$-"
work=$(mktemp -d)
trap '/usr/bin/scancel -n "$(printf "${prefix}%s," A B C D E F G H)" >/dev/null 2>&1; rm -rf "$work"' EXIT

submit() { # letter options command
	# shellcheck disable=SC2086 # options are words on purpose
	(cd "$work" && /usr/bin/sbatch --parsable -J "$prefix$1" -o /dev/null $2 --wrap "$3")
}
snapshot() {
	/usr/bin/squeue -h -t PENDING,RUNNING -o '%j %T %r' --sort=j | sed -n "s/^$prefix//p" | paste -sd, -
}

others() { /usr/bin/squeue -h -t PENDING,RUNNING,COMPLETING -o '%j' | grep -cv "^$prefix"; }

record() { # NAME: one scenario
	if [ "$(others)" != 0 ]; then
		echo "record.sh: other jobs are on the reference; try again when it is idle" >&2
		return 1
	fi
	local first=1 letter opts cmd
	while IFS=$'\t' read -r letter opts cmd; do
		case "$letter" in '#'* | '') continue ;; esac
		submit "$letter" "$opts" "$cmd" >/dev/null || return 1
		if [ $first = 1 ]; then # the first job runs before the others are submitted
			first=0
			for _ in $(seq 60); do
				[ "$(snapshot)" = "$letter RUNNING None" ] && break
				sleep 0.5
			done
		fi
	done < "testdata/$1.txt"

	out="testdata/$1.golden"
	{
		echo "# recorded by record.sh on $(/usr/bin/sinfo -V): one line per distinct state, then the start order"
		last="" order=""
		for _ in $(seq 1200); do # at most ~10 minutes
			s=$(snapshot)
			[ -z "$s" ] && break
			if [ "$(others)" != 0 ]; then
				echo "record.sh: another job appeared on the reference; $1.golden not changed" >&2
				rm -f "$out.tmp"
				return 1
			fi
			case ",$s" in *" PENDING None"*) sleep 0.5; continue ;; esac
			if [ "$s" != "$last" ]; then
				echo "$s"
				for r in $(echo "$s" | tr ',' '\n' | awk '$2=="RUNNING"{print $1}'); do
					case " $order " in *" $r "*) ;; *) order="$order $r" ;; esac
				done
				last=$s
			fi
			sleep 0.5
		done
		echo "start order:$order"
	} > "$out.tmp" && mv "$out.tmp" "$out"
	cat "$out"
}

names=("$@")
if [ ${#names[@]} = 0 ]; then
	for f in testdata/*.txt; do names+=("$(basename "$f" .txt)"); done
fi
for n in "${names[@]}"; do
	echo "== $n"
	record "$n" || exit 1
done
