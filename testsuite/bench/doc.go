// Package bench measures a real Orbit cluster (testsuite/cluster: slurmctld and one slurmd
// emulating 16 nodes on loopback) with the figures /work/shared/reference-slurm/measure.sh
// takes on the reference Slurm, defined the same way, so the two read side by side:
// sequential sbatch throughput, end-to-end throughput of 500 `true` jobs, one job's
// turnaround and `srun -N1 true` latency. The benchmarks live in bench_test.go; run them with
// `go test -run '^$' -bench . ./testsuite/bench/` (make bench does).
//
// It imports only testsuite/cluster and the packages a command would; never daemon code.
package bench
