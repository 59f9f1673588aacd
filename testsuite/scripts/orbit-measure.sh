#!/usr/bin/env bash
# orbit-measure.sh [NJOBS] — issue 9's figures for Orbit alone: the Orbit half of
# sidebyside.sh (a 16-node cluster of 64-CPU nodes, slurmctld and one slurmd hosting the
# nodes, loopback, free ports, in a temp dir) measured by the reference's own measure.sh with
# Orbit's commands first on PATH. It never touches the reference Slurm.
#
#   ROUNDS=1            measure.sh's rounds
#   BINDIR=dir          use these built binaries (default: build the ones measured into the
#                       temp dir, so a half-built package elsewhere in the tree does not matter)
#   ORBIT_CMD='...'     instead of measure.sh, run this shell command with the cluster up
#                       (SLURM_CONF and PATH set; $ORBIT_BASE is the cluster's directory,
#                       $ORBIT_CTLD/$ORBIT_SLURMD the daemons' PIDs), e.g. for profiling
#   ORBIT_DEBUG=1       run slurmctld and slurmd with -v (debug logs: per-hop timestamps of each launch)
#   KEEP=1              keep the cluster's directory (logs) and print where it is
#   TIMELINE=1          instead of measure.sh: one `srun -N1 true` and one `sbatch --wrap true`
#                       on the idle cluster with debug logs, then every daemon's log line
#                       about them, in time order, in ms from the command's start
#
# Daemons are stopped by PID; the temp dir is removed unless KEEP=1.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${ORBIT_SHARED:-$(cd "$root/.." && pwd)/shared}
measure=$shared/reference-slurm/measure.sh
NJOBS=${1:-500}
NODES=16
CPUS=64
MEM=257000

die() { echo "orbit-measure: $*" >&2; exit 1; }
[[ -n ${ORBIT_CMD:-} || -x $measure ]] || die "no $measure (set ORBIT_SHARED)"

work=$(mktemp -d /tmp/orbit-measure.XXXXXX)
pids=()
cleanup() {
	local pid
	for pid in "${pids[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
	done
	if [[ ${KEEP:-} == 1 ]]; then
		echo "orbit-measure: kept $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

bin=${BINDIR:-}
if [[ -z $bin ]]; then
	bin=$work/bin
	echo "== building Orbit's daemons and commands into $bin" >&2
	(cd "$root" && go build -o "$bin/" ./slurmctld ./slurmd ./slurmd/slurmstepd ./sbatch ./srun \
		./squeue ./sinfo ./scontrol ./scancel ./plugins/cmd/sched_backfill ./plugins/cmd/sched_builtin)
fi

base=$work/orbit
mkdir -p "$base"/{etc,pids,state,spool,log,run}
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}
# The reference's slurm.conf, with Orbit's paths, ports and local authentication.
cat >"$base/etc/slurm.conf" <<CONF
ClusterName=orbit
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
AuthType=auth/slurm
CredType=cred/slurm
AuthInfo=socket=$base/run/sack.socket
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool/%n
SlurmctldPidFile=$base/run/slurmctld-daemon.pid
SlurmdPidFile=$base/run/slurmd-%n.pid
SlurmctldLogFile=$base/log/slurmctld.log
SlurmdLogFile=$base/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=n[1-$NODES] NodeAddr=127.0.0.1 Sockets=2 CoresPerSocket=$((CPUS / 2)) ThreadsPerCore=1 RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
head -c 1024 /dev/urandom >"$base/etc/slurm.key"
chmod 600 "$base/etc/slurm.key"
export SLURM_CONF=$base/etc/slurm.conf
dflag=()
[[ ${ORBIT_DEBUG:-} == 1 || ${TIMELINE:-} == 1 ]] && dflag=(-v)
"$bin/slurmctld" -D "${dflag[@]}" -f "$SLURM_CONF" >"$base/log/slurmctld.stderr" 2>&1 </dev/null &
pids+=("$!")
echo "$!" >"$base/pids/slurmctld.pid"
ctld=$!
"$bin/slurmd" -D "${dflag[@]}" -f "$SLURM_CONF" -N "n[1-$NODES]" >"$base/log/slurmd.stderr" 2>&1 </dev/null &
pids+=("$!")
slurmd=$!
idle=0
for _ in $(seq 300); do
	idle=$("$bin/sinfo" -h -t idle -o %D 2>/dev/null | awk '{s+=$1} END {print s+0}')
	[[ $idle == "$NODES" ]] && break
	sleep 0.2
done
[[ $idle == "$NODES" ]] || { tail "$base"/log/*; die "Orbit's $NODES nodes did not come up"; }

export PATH=$bin:$PATH
# timeline T0 JOB: the log lines about JOB (controller, slurmd, stepds), in ms after T0.
timeline() {
	cat "$base"/log/*.log | grep -E "job=$2( |\$)" | sort | awk -v t0="$1" '{
		split($1, a, "T"); split(a[2], h, ":"); sub(/Z$/, "", h[3])
		t = h[1]*3600 + h[2]*60 + h[3]
		m = $0; sub(/^time=[^ ]* /, "", m)
		printf "  %+8.1f ms  %s\n", (t - t0)*1000, m
	}'
}
# daysec: seconds since midnight UTC now, as the logs' time stamps show it.
daysec() { date -u +%H:%M:%S.%N | awk -F: '{printf "%.6f", $1*3600 + $2*60 + $3}'; }
if [[ ${TIMELINE:-} == 1 ]]; then
	sleep 1
	t0=$(daysec); srun -N1 true; t1=$(daysec)
	echo "srun -N1 true: $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", (b-a)*1000}') ms"
	timeline "$t0" "$(squeue -h -t all -o %i | sort -n | tail -1)"
	sleep 1
	t0=$(daysec); id=$(sbatch --parsable --wrap true); t1=$(daysec)
	while [[ -n $(squeue -h -j "$id" 2>/dev/null) ]]; do sleep 0.01; done
	t2=$(daysec)
	echo "sbatch --wrap true: acknowledged $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", (b-a)*1000}') ms, gone from squeue $(awk -v a="$t0" -v b="$t2" 'BEGIN {printf "%.1f", (b-a)*1000}') ms"
	timeline "$t0" "$id"
elif [[ -n ${ORBIT_CMD:-} ]]; then
	ORBIT_BASE=$base ORBIT_CTLD=$ctld ORBIT_SLURMD=$slurmd bash -c "$ORBIT_CMD"
else
	SLURM_ANCHOR_DIR=$base ROUNDS=${ROUNDS:-1} "$measure" "$NJOBS"
fi
