#!/usr/bin/env bash
# record.sh — records the reference Slurm's squeue/sinfo output for the format golden test.
#
# Submits a few held jobs named fmt_* (and one running one), runs squeue with every format of
# cases_squeue.txt restricted to those names, records `scontrol show job -o` for the same
# jobs (the data the Go test rebuilds rows from), records sinfo formats with
# `scontrol show node -o`/`show partition -o`, then cancels exactly the jobs it submitted.
# Needs SLURM_CONF pointing at the reference (make compat sets it).
set -euo pipefail
cd "$(dirname "$0")"
: "${SLURM_CONF:?SLURM_CONF must point at the reference slurm.conf}"
SBATCH=${SBATCH:-/usr/bin/sbatch}
SQUEUE=${SQUEUE:-/usr/bin/squeue}
SINFO=${SINFO:-/usr/bin/sinfo}
SCONTROL=${SCONTROL:-/usr/bin/scontrol}
SCANCEL=${SCANCEL:-/usr/bin/scancel}
out=testdata
rm -rf "$out/squeue" "$out/sinfo"
mkdir -p "$out/squeue" "$out/sinfo"

ids=()
cleanup() { if ((${#ids[@]})); then "$SCANCEL" "${ids[@]}" 2>/dev/null || true; fi; }
trap cleanup EXIT

last=
submit() { # submit <sbatch args...>: records the job id in ids and last
	last=$("$SBATCH" --parsable "$@" --wrap 'sleep 300' --output=/dev/null)
	last=${last%%;*}
	ids+=("$last")
}

submit -H -J fmt_a
a=$last
submit -H -J fmt_a_rather_long_job_name_for_truncation -t 1:30:00 -N 1 -c 4 --comment=hello
submit -H -J fmt_arr --array=1-5%2 -t 10
submit -H -J fmt_dep --dependency=afterok:"$a" -t 2-00:00:00 --mem=4G
submit -H -J fmt_b -p debug -n 3 -t 45 --nice=10 --mem=1536M
submit -J fmt_begin --begin=now+2hours -t 5
names=fmt_a,fmt_a_rather_long_job_name_for_truncation,fmt_arr,fmt_dep,fmt_b,fmt_begin

# Give the controller one scheduling pass so pending reasons and estimates settle.
sleep 2
showjobs() { local id; for id in "${ids[@]}"; do "$SCONTROL" show job -o "$id"; done; }
showjobs >"$out/jobs_before.txt"

n=0
while IFS=$'\t' read -r mode spec; do
	[[ -z "$mode" || "$mode" == \#* ]] && continue
	n=$((n + 1))
	case=$(printf '%03d' "$n")
	args=()
	case "$mode" in
	o) args=(-o "$spec") ;;
	oh) args=(-h -o "$spec") ;;
	O) args=(-O "$spec") ;;
	Oh) args=(-h -O "$spec") ;;
	default) args=() ;;
	long) args=(-l) ;;
	*) echo "record.sh: bad mode $mode" >&2; exit 1 ;;
	esac
	printf '%s\t%s\n' "$mode" "$spec" >"$out/squeue/$case.case"
	rc=0
	"$SQUEUE" -n "$names" "${args[@]}" >"$out/squeue/$case.out" 2>"$out/squeue/$case.err" || rc=$?
	echo "$rc" >"$out/squeue/$case.rc"
	if [[ "$mode" == long ]]; then
		# The first line of squeue -l is the current date: keep the rest.
		sed -i 1d "$out/squeue/$case.out"
	fi
done <cases_squeue.txt

"$SQUEUE" -h -n "$names" -o '%A' >"$out/order.txt"
"$SCONTROL" show config | awk '$1 == "ClusterName" || $1 == "SlurmdPort" {print $1 "=" $3}' >"$out/config.txt"
showjobs >"$out/jobs.txt"
if ! diff <(sed 's/ RunTime=[^ ]*//' "$out/jobs_before.txt") <(sed 's/ RunTime=[^ ]*//' "$out/jobs.txt") >/dev/null; then
	echo "record.sh: job data changed while recording; run again" >&2
	exit 1
fi
rm "$out/jobs_before.txt"

# sinfo: outputs with the node and partition data they come from. Other users' jobs can
# change the node between the calls, so the pass is retried until the data held still.
volatile() { sed -E 's/ (CPULoad|FreeMem|LastBusyTime|CurrentWatts|AveWatts)=[^ ]*//g' "$1"; }
record_sinfo() {
	"$SCONTROL" show node -o >"$out/sinfo/nodes_before.txt"
	local n=0 mode spec case rc args
	while IFS=$'\t' read -r mode spec; do
		[[ -z "$mode" || "$mode" == \#* ]] && continue
		n=$((n + 1))
		case=$(printf '%03d' "$n")
		args=()
		case "$mode" in
		o) args=(-o "$spec") ;;
		oh) args=(-h -o "$spec") ;;
		O) args=(-O "$spec") ;;
		Oh) args=(-h -O "$spec") ;;
		default) args=() ;;
		long) args=(-l) ;;
		node) args=(-N) ;;
		*) echo "record.sh: bad mode $mode" >&2; exit 1 ;;
		esac
		printf '%s\t%s\n' "$mode" "$spec" >"$out/sinfo/$case.case"
		rc=0
		"$SINFO" "${args[@]}" >"$out/sinfo/$case.out" 2>"$out/sinfo/$case.err" || rc=$?
		echo "$rc" >"$out/sinfo/$case.rc"
		if [[ "$mode" == long ]]; then
			sed -i 1d "$out/sinfo/$case.out"
		fi
	done <cases_sinfo.txt
	"$SCONTROL" show node -o >"$out/sinfo/nodes.txt"
	"$SCONTROL" show partition -o >"$out/sinfo/partitions.txt"
	diff <(volatile "$out/sinfo/nodes_before.txt") <(volatile "$out/sinfo/nodes.txt") >/dev/null
}
ok=
for attempt in 1 2 3 4 5; do
	if record_sinfo; then ok=1; break; fi
	sleep 2
done
rm -f "$out/sinfo/nodes_before.txt"
[[ -n "$ok" ]] || { echo "record.sh: node data kept changing while recording sinfo" >&2; exit 1; }
echo "record.sh: recorded $(ls "$out/squeue"/*.out | wc -l) squeue and $(ls "$out/sinfo"/*.out | wc -l) sinfo cases"
