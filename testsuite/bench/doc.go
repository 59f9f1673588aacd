// Package bench measures a real Orbit cluster (testsuite/cluster: slurmctld and one slurmd
// emulating 16 nodes on loopback) with the figures /work/shared/reference-slurm/measure.sh
// takes on the reference Slurm, defined the same way, so the two read side by side:
// sequential sbatch throughput, end-to-end throughput of 500 `true` jobs, one job's
// turnaround and `srun -N1 true` latency. bench_fanout_test.go and bench_scale_test.go take
// issue 9's figures on 1,000 to 20,000 emulated nodes: ping sweeps (also with 30 % of the
// nodes dead), the registration storm after a controller restart, and wide srun launches. The benchmarks live in bench_test.go; run them with
// `go test -run '^$' -bench . ./testsuite/bench/` (make bench does).
//
// It imports only testsuite/cluster and the packages a command would; never daemon code.
package bench
