#!/bin/bash
# record.sh records the goldens of squeue/sinfo --json/--yaml from the reference Slurm
# 22.05 (source /tmp/slurm-anchor/env.sh first, or set SLURM_CONF). It submits three jobs
# named zzjson_* (held, running, completed), waits for their states, records, and cancels
# them by id. squeue --json ignores -j and -n, so the jobs are picked from its output by id;
# everything is normalised by normcmd, the same code the Go test applies to Orbit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$here/testdata
bin=/usr/bin
work=$(mktemp -d /tmp/zzjson-record.XXXXXX)
norm=$work/normcmd
(cd "$root" && go build -o "$norm" ./testsuite/json/normcmd)
cd "$work"

held=$($bin/sbatch --parsable --job-name=zzjson_held --hold -n 2 --mem=100 -t 1:00:00 \
	--comment='a/b: "c" #d' --wrap true)
run=$($bin/sbatch --parsable --job-name=zzjson_run -t 10 -o /dev/null --wrap "sleep 300")
done_=$($bin/sbatch --parsable --job-name=zzjson_done -o /dev/null --wrap true)
trap '$bin/scancel "$held" "$run" "$done_" 2>/dev/null || true; rm -rf -- "$work"' EXIT

state() { $bin/squeue -h -t all -j "$1" -o %T 2>/dev/null || true; }
for i in $(seq 1 180); do
	if [ "$(state "$run")" = RUNNING ] && [ "$(state "$done_")" = COMPLETED ]; then break; fi
	sleep 1
done
[ "$(state "$run")" = RUNNING ] || { echo "job $run never ran" >&2; exit 1; }
[ "$(state "$done_")" = COMPLETED ] || { echo "job $done_ never completed" >&2; exit 1; }

$bin/squeue --json | "$norm" -jobs "$held,$run,$done_" >"$out/squeue.json"
$bin/squeue --yaml | "$norm" -jobs "$held,$run,$done_" -yaml >"$out/squeue.yaml"
# The node must hold only our running job (1 CPU), or its state is someone else's.
$bin/sinfo --json >"$work/sinfo.json"
grep -q '"alloc_cpus": 1,' "$work/sinfo.json" || { echo "the reference node runs other jobs; retry later" >&2; exit 1; }
"$norm" <"$work/sinfo.json" >"$out/sinfo.json"
$bin/sinfo --yaml | "$norm" -yaml >"$out/sinfo.yaml"
echo "recorded into $out"
