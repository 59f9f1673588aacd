#!/usr/bin/env bash
# record.sh: runs the scontrol scenario (scenario.txt, a few squeue steps among it) against the live reference Slurm and
# stores each step's stdout, stderr and exit code under testdata/reference/. Jobs are named
# qsc-*, use fixed options and are cancelled at the end; the shared node is never drained
# (only node-update error cases are recorded). Needs /tmp/slurm-anchor/env.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source /tmp/slurm-anchor/env.sh
out="$here/testdata/reference"
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d /tmp/qsc.XXXXXX)
cd "$work"
A=$(/usr/bin/sbatch --parsable -H --job-name=qsc-held --mem=100M -o /dev/null --wrap 'sleep 300')
B=$(/usr/bin/sbatch --parsable --job-name=qsc-run -n2 -t 10 --mem=100M -o /dev/null --wrap 'sleep 300')
# The site options' fields (ReqB:S:C:T, MinTmpDiskNode, DelayBoot, Switches, CPU_*_freq): a
# held job (C; the node has no TmpDisk, so --tmp is only accepted held), a running one (D) and
# a --hint one (E, with --spread-job: its SpreadJob=Yes line).
C=$(/usr/bin/sbatch --parsable -H --job-name=qsc-site -n2 --ntasks-per-node=2 --mem=100M -o /dev/null \
	--sockets-per-node=1 --cores-per-socket=1 --threads-per-core=1 --ntasks-per-core=1 --tmp=100M \
	--delay-boot=5 --switches=1@10:00 --cpu-freq=Low-High:Performance --wrap 'sleep 300')
D=$(/usr/bin/sbatch --parsable --job-name=qsc-siterun -n1 -t 10 --mem=100M -o /dev/null \
	--sockets-per-node=1 --cores-per-socket=1 --threads-per-core=1 --ntasks-per-core=1 \
	--delay-boot=1-0 --switches=1@2 --cpu-freq=2000000 --wrap 'sleep 300')
E=$(/usr/bin/sbatch --parsable -H --job-name=qsc-hint --mem=100M -o /dev/null --hint=nomultithread \
	--cpu-freq=Performance --spread-job --wrap 'sleep 300')
trap '/usr/bin/scancel "$A" "$B" "$C" "$D" "$E" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 60); do
  [ "$(/usr/bin/squeue -h -j "$B,$D" -o %T | sort -u)" = RUNNING ] && break
  sleep 1
done
n=0
while IFS= read -r line; do
  [ -z "$line" ] && continue
  case "$line" in \#*) continue ;; esac
  n=$((n + 1))
  args=${line//@A/$A}
  args=${args//@B/$B}
  args=${args//@C/$C}
  args=${args//@D/$D}
  args=${args//@E/$E}
  # A step starting "squeue " runs squeue (the site options' squeue fields, on the same jobs).
  cmd=/usr/bin/scontrol
  case "$args" in squeue\ *) cmd=/usr/bin/squeue args=${args#squeue } ;; esac
  # shellcheck disable=SC2086
  set +e
  $cmd $args > "$out/$n.out" 2> "$out/$n.err"
  echo $? > "$out/$n.rc"
  set -e
done < "$here/testdata/scenario.txt"
# Canonical values where scontrol_test.go's normalise masks the recording anyway (ids in
# their JobId=/StepId=/job contexts, timestamps, RunTime, non-zero Priority, WorkDir, AllocNode:Sid,
# the controller's host), so that re-recording does not churn the goldens; the test's
# normalise maps these exactly as it mapped the raw values.
perl -pi -e "s/(JobId=|StepId=|[Jj]ob step |[Jj]ob )$A\\b/\${1}1001/g; s/(JobId=|StepId=|[Jj]ob step |[Jj]ob )$B\\b/\${1}1002/g;" \
	-e "s/(JobId=|StepId=|[Jj]ob step |[Jj]ob )$C\\b/\${1}1003/g; s/(JobId=|StepId=|[Jj]ob step |[Jj]ob )$D\\b/\${1}1004/g;" \
	-e "s/(JobId=|StepId=|[Jj]ob step |[Jj]ob )$E\\b/\${1}1005/g;" \
	-e 's/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/2000-01-01T00:00:00/g; s/RunTime=[0-9:-]+/RunTime=00:00:00/g;' \
	-e 's/Priority=[1-9]\d*/Priority=1/g; s/WorkDir=\S+/WorkDir=\/tmp\/qsc.WORK/g;' \
	-e 's/AllocNode:Sid=\S+/AllocNode:Sid=HOST:1/g; s/Slurmctld\((\w+)\) at \S+ is/Slurmctld($1) at HOST is/g;' \
	"$out"/*.out "$out"/*.err
echo "1001 1002 1003 1004 1005" > "$out/ids"
echo "record: $n steps"
