#!/usr/bin/env bash
# quickstart.sh — from a fresh clone to a running local Orbit cluster.
#
#   testsuite/scripts/quickstart.sh         build, configure 4 emulated nodes, start the
#                                           daemons, run examples/hello.sh and show its output
#   testsuite/scripts/quickstart.sh stop    stop the daemons started here (recorded PIDs)
#
# Everything lives in ${ORBIT_HOME:-$HOME/.orbit/cluster} (slurm.conf, slurm.key, state, logs,
# pids), owned by the user running it; no root needed. Running it again reuses the
# configuration and restarts nothing that is already running.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
home=${ORBIT_HOME:-$HOME/.orbit/cluster}
conf=$home/slurm.conf
nodes=${ORBIT_NODES:-4}

alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
	local f pid
	for f in "$home"/run/slurmd.pid "$home"/run/slurmctld.pid; do
		alive "$f" || { rm -f "$f"; continue; }
		pid=$(cat "$f")
		kill -TERM "$pid"
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
		rm -f "$f"
		echo "stopped $(basename "$f" .pid) (pid $pid)"
	done
}

if [[ "${1:-}" == stop ]]; then
	stop
	exit 0
fi

echo "== building"
(cd "$root" && make)
bin=$root/bin
for b in slurmctld slurmd slurmstepd sbatch squeue scancel; do
	[[ -x "$bin/$b" ]] || { echo "quickstart: $bin/$b was not built" >&2; exit 1; }
done

mkdir -p "$home"/{state,spool,log,run}
# free_port picks a loopback port nothing listens on (bash only: a fresh machine may lack python).
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}
if [[ ! -f "$conf" ]]; then
	echo "== writing $conf ($nodes emulated nodes)"
	cpus=$(nproc)
	mem=$(awk '/MemTotal/ {print int($2/1024/'"$nodes"')}' /proc/meminfo)
	cat >"$conf" <<CONF
# Written by testsuite/scripts/quickstart.sh: a local Orbit cluster of $nodes emulated nodes.
ClusterName=orbit
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$(id -un)
AuthType=auth/slurm
CredType=cred/slurm
AuthInfo=socket=$home/run/sack.socket
StateSaveLocation=$home/state
AccountingStorageType=accounting_storage/orbit
SlurmdSpoolDir=$home/spool/%n
SlurmctldPidFile=$home/run/slurmctld-daemon.pid
SlurmdPidFile=$home/run/slurmd-%n.pid
SlurmctldLogFile=$home/log/slurmctld.log
SlurmdLogFile=$home/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MinJobAge=300
ReturnToService=2
NodeName=n[1-$nodes] NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
fi
[[ -f "$home/slurm.key" ]] || { head -c 1024 /dev/urandom >"$home/slurm.key"; chmod 600 "$home/slurm.key"; }
export SLURM_CONF=$conf

start() { # start <name> <pidfile> <args...>: run a daemon in the foreground mode, detached
	local name=$1 pidfile=$2
	shift 2
	if alive "$pidfile"; then
		echo "$name already running (pid $(cat "$pidfile"))"
		return
	fi
	nohup "$bin/$name" "$@" >>"$home/log/$name.stderr" 2>&1 </dev/null &
	echo $! >"$pidfile"
	echo "started $name (pid $!)"
}
echo "== starting the daemons"
start slurmctld "$home/run/slurmctld.pid" -D -f "$conf"
start slurmd "$home/run/slurmd.pid" -D -f "$conf" -N "n[1-$nodes]"

echo "== waiting for the nodes"
for _ in $(seq 100); do
	"$bin/squeue" -h >/dev/null 2>&1 && break
	sleep 0.2
done

cd "$home"
echo "== sbatch $root/examples/hello.sh"
id=$("$bin/sbatch" --parsable "$root/examples/hello.sh")
echo "Submitted batch job $id"
echo "== squeue"
"$bin/squeue"
for _ in $(seq 300); do
	[[ -z "$("$bin/squeue" -h -j "$id" 2>/dev/null)" ]] && break
	sleep 0.2
done
echo "== $home/hello-$id.out"
cat "$home/hello-$id.out"

cat <<USAGE

Your Orbit cluster is running ($nodes emulated nodes; logs in $home/log).
Use it from any shell:
    export SLURM_CONF=$conf
    $bin/sbatch $root/examples/hello.sh
    $bin/squeue
    $bin/scancel <jobid>
Stop it with:
    ${ORBIT_HOME:+ORBIT_HOME=$home }$root/testsuite/scripts/quickstart.sh stop   (or: make cluster-stop)
USAGE
