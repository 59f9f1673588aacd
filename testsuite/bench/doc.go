// Package bench measures a real Orbit cluster (testsuite/cluster: slurmctld and one slurmd
// emulating the nodes on loopback), each figure printed as `name: value unit` by make bench
// (testsuite/scripts/bench.sh):
//
//   - bench_test.go: the figures /work/shared/reference-slurm/measure.sh takes on the
//     reference Slurm, defined the same way so the two read side by side: sequential sbatch
//     throughput, end-to-end throughput of 500 `true` jobs, one job's turnaround and
//     `srun -N1 true` latency, on 16 nodes.
//   - bench_query_test.go: squeue, sinfo and scontrol show with 10,000 jobs queued (issue 5;
//     100,000 with ORBIT_BENCH_100K=1).
//   - bench_ingest_test.go: controller ingest, durable jobs/s from concurrent RPC clients, and
//     the controller's peak RSS (issue 9).
//   - bench_fanout_test.go, bench_scale_test.go: ping sweeps on 1,000 to 20,000 emulated
//     nodes (also with 30 % of them dead), the registration storm after a controller
//     restart, and wide srun launches (issue 9).
//
// Run them with `go test -run '^$' -bench . ./testsuite/bench/`.
//
// It imports only testsuite/cluster and the packages a command would; never daemon code.
package bench
