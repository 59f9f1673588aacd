#!/usr/bin/env bash
# sidebyside.sh [NJOBS] — issue 9's figures for the reference Slurm and for Orbit, in one run on
# this machine, with this machine's primitives, the bounds built from them, and the ratios.
#
# 1. The primitives: BenchmarkPrimitives (testsuite/bench) times an empty Go program's start,
#    /bin/true, `bash -c true` and a 512-byte fsync.
# 2. The reference: ../shared/reference-slurm/up.sh 16 (16 nodes of 64 CPUs), then its
#    measure.sh NJOBS (default 500), one round.
# 3. Orbit: orbit-measure.sh, a 16-node cluster of the same shape (slurmctld and one slurmd
#    hosting the nodes, loopback, free ports, in a temp dir), measured by the very same
#    measure.sh with Orbit's commands first on PATH.
# 4. A table: each figure for both, the bound, Orbit/reference and Orbit/bound, and the goal.
#
# Needs root (the reference runs as root) and the reference's scripts; it is not part of
# `make test`. Each cluster runs alone: the reference is stopped before Orbit is measured and
# brought back afterwards with as many nodes as it had (none: it stays down). Orbit's daemons
# are stopped by PID (orbit-measure.sh). Figures of one run only compare within that run:
# these machines differ 2–3x in process creation.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${ORBIT_SHARED:-$(cd "$root/.." && pwd)/shared}
ref=$shared/reference-slurm
NJOBS=${1:-500}
NODES=16

die() { echo "sidebyside: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || die "run as root: the reference Slurm runs as root"
[[ -x $ref/up.sh && -x $ref/measure.sh ]] || die "no reference scripts under $ref (set ORBIT_SHARED)"

work=$(mktemp -d /tmp/orbit-sidebyside.XXXXXX)
# The reference's size now, to bring it back as it was (empty when it is not running).
ref_nodes_before=
if [[ -f /tmp/slurm-anchor/pids/slurmctld.pid ]] && kill -0 "$(cat /tmp/slurm-anchor/pids/slurmctld.pid)" 2>/dev/null; then
	ref_nodes_before=$(awk '/^# Written by .*up.sh/ {print $(NF-1)}' /tmp/slurm-anchor/etc/slurm.conf 2>/dev/null || true)
fi
trap 'rm -rf "$work"' EXIT

echo "== building Orbit" >&2
make -C "$root" build >/dev/null

echo "== primitives" >&2
(cd "$root" && go test -run '^$' -bench Primitives -benchtime 200x ./testsuite/bench/) >"$work/prim.txt"
prim() { awk -v n="BenchmarkPrimitives/$1" 'index($1, n"-") == 1 || $1 == n {printf "%.3f", $3/1e6}' "$work/prim.txt"; }
go_ms=$(prim GoStart); true_ms=$(prim TrueStart); bash_ms=$(prim BashTrue); fsync_ms=$(prim Fsync512)
[[ -n $go_ms && -n $true_ms && -n $bash_ms && -n $fsync_ms ]] || { cat "$work/prim.txt" >&2; die "primitives not measured"; }
# measure.sh times each call as `t=$(date); timeout N CMD; $(date)` and each submit as
# `timeout 30 sbatch`: those process starts are in every figure it prints, the reference's and
# Orbit's alike. Timed here the same way around /bin/true (medians of 21), they are the floor
# under its figures, printed beside the issue's bounds (which leave them out).
now() { date +%s.%N; }
harness=$(for _ in $(seq 21); do t=$(now); timeout 60 /bin/true >/dev/null 2>&1; awk -v a="$(now)" -v b="$t" 'BEGIN {printf "%.3f\n", (a-b)*1000}'; done | sort -n | awk '{a[NR] = $1} END {print a[11]}')
t=$(now); for _ in $(seq 100); do timeout 30 /bin/true >/dev/null 2>&1; done
per_submit=$(awk -v a="$(now)" -v b="$t" 'BEGIN {printf "%.3f", (a-b)*10}')

echo "== the reference: up.sh $NODES, measure.sh $NJOBS" >&2
"$ref/up.sh" "$NODES" >"$work/ref-up.log" 2>&1 || { cat "$work/ref-up.log" >&2; die "up.sh $NODES failed"; }
ROUNDS=1 "$ref/measure.sh" "$NJOBS" >"$work/ref.txt" 2>"$work/ref.err" || true
"$ref/down.sh" >/dev/null 2>&1 || true

echo "== Orbit: $NODES nodes, measure.sh $NJOBS" >&2
# orbit-measure.sh is the Orbit half: the same cluster shape, measured by the same measure.sh.
BINDIR=$root/bin ORBIT_SHARED=$shared ROUNDS=1 "$root/testsuite/scripts/orbit-measure.sh" "$NJOBS" \
	>"$work/orbit.txt" 2>"$work/orbit.err" || true

if [[ -n $ref_nodes_before ]]; then
	echo "== bringing the reference back with $ref_nodes_before node(s)" >&2
	"$ref/up.sh" "$ref_nodes_before" >/dev/null 2>&1 || echo "sidebyside: up.sh $ref_nodes_before failed" >&2
fi

# fig FILE NAME: a figure measure.sh printed (round 1).
fig() { awk -v k="r1.$2:" '$1 == k {print $2}' "$1"; }
echo "host: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
echo "primitive_go_start: $go_ms ms"
echo "primitive_true_start: $true_ms ms"
echo "primitive_bash_c_true: $bash_ms ms"
echo "primitive_fsync_512: $fsync_ms ms"
echo "primitive_measure_sh_timed_true: $harness ms (date, timeout /bin/true, date: measure.sh's way of timing one call)"
echo "primitive_measure_sh_submit_loop_true: $per_submit ms (timeout /bin/true per iteration, as measure.sh submits)"
# The bounds, as issue 9 builds them.
submit_bound=$(awk -v g="$go_ms" 'BEGIN {printf "%.1f", 1000/(g+1)}')
turn_bound=$(awk -v g="$go_ms" -v s="$bash_ms" 'BEGIN {printf "%.4f", (2*g+s+1)/1000}')
srun_bound=$(awk -v g="$go_ms" -v t="$true_ms" 'BEGIN {printf "%.4f", (g+t+1)/1000}')
squeue_bound=$(awk -v g="$go_ms" 'BEGIN {printf "%.4f", (g+1)/1000}')
# The same bounds with measure.sh's own process starts added: a timed call's floor is
# harness less the /bin/true it timed; a submit's, the loop's timeout less its /bin/true.
timed() { awk -v b="$1" -v h="$harness" -v t="$true_ms" 'BEGIN {printf "%.4f", b+(h-t)/1000}'; }
submit_timed=$(awk -v g="$go_ms" -v p="$per_submit" -v t="$true_ms" 'BEGIN {printf "%.1f", 1000/(g+1+p-t)}')
echo "bounds with measure.sh's own process starts: submit $submit_timed jobs/s, srun $(timed "$srun_bound") s, squeue $(timed "$squeue_bound") s"

# row NAME UNIT HIGHER_IS_BETTER BOUND GOAL: both figures, the bound and the ratios.
row() {
	local name=$1 unit=$2 higher=$3 bound=$4 goal=$5 r o
	r=$(fig "$work/ref.txt" "$name"); o=$(fig "$work/orbit.txt" "$name")
	awk -v n="$name" -v u="$unit" -v h="$higher" -v r="$r" -v o="$o" -v b="$bound" -v g="$goal" 'BEGIN {
		vs = "-"; vb = "-"
		if (r != "" && o != "" && r+0 > 0 && o+0 > 0) vs = sprintf("%.2f", h ? o/r : r/o)
		if (o != "" && b+0 > 0 && o+0 > 0) vb = sprintf("%.2f", h ? o/b : b/o)
		printf "%-28s %-6s reference %-10s orbit %-10s bound %-9s orbit/reference %-6s orbit/bound %-6s goal: %s\n",
			n, u, (r == "" ? "-" : r), (o == "" ? "-" : o), b, vs, vb, g
	}'
}
echo
echo "(ratios are \"times better\": above 1 means Orbit is faster than the reference, or this share of the bound)"
row submit_jobs_per_s jobs/s 1 "$submit_bound" "orbit/bound >= 0.60 and orbit/reference >= 2"
row e2e_jobs_per_s jobs/s 1 "$submit_bound" "orbit/bound >= 0.50 and orbit/reference >= 3"
row srun_N1_true_median_s s 0 "$srun_bound" "orbit/bound >= 0.50 and orbit/reference >= 3"
row squeue_pending_median_s s 0 "$squeue_bound" "orbit/bound >= 0.67"
# single_job_turnaround_s is three samples; compare their medians.
med() { awk -v k="r1.single_job_turnaround_s:" '$1 == k {for (i = 2; i <= NF; i++) print $i}' "$1" | sort -n | awk '{a[NR] = $1} END {if (NR) print a[int((NR+1)/2)]}'; }
r=$(med "$work/ref.txt"); o=$(med "$work/orbit.txt")
awk -v r="$r" -v o="$o" -v b="$turn_bound" 'BEGIN {
	printf "%-28s %-6s reference %-10s orbit %-10s bound %-9s orbit/reference %-6s orbit/bound %-6s goal: orbit < 0.050 s\n",
		"single_job_turnaround_s", "s", r, o, b, (r+0 > 0 && o+0 > 0 ? sprintf("%.2f", r/o) : "-"), (o+0 > 0 ? sprintf("%.2f", b/o) : "-")
}'
for n in ctld_rss_idle_kb ctld_rss_with_pending_kb ctld_cpu_seconds_during_load; do
	echo "$(printf '%-28s' "$n") reference $(fig "$work/ref.txt" "$n") orbit $(fig "$work/orbit.txt" "$n")"
done
echo
echo "== the reference's measure.sh"
cat "$work/ref.txt"
echo "== Orbit's measure.sh"
cat "$work/orbit.txt"
