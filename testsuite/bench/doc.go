// Package bench measures a real Orbit cluster (testsuite/cluster: slurmctld and one slurmd
// emulating the nodes on loopback), each figure printed as `name: value unit` by make bench
// (testsuite/scripts/bench.sh):
//
//   - bench_test.go: the figures /work/shared/reference-slurm/measure.sh takes on the
//     reference Slurm, defined the same way so the two read side by side: sequential sbatch
//     throughput, end-to-end throughput of 500 `true` jobs, one job's turnaround (polled
//     every 50 ms as measure.sh does, and back to back) and `srun -N1 true` latency, on 16
//     nodes.
//   - bench_query_test.go: squeue, sinfo and scontrol show with 10,000 jobs queued (issue 5;
//     100,000 with ORBIT_BENCH_100K=1), and one job's `scontrol show job` RPC while 8
//     clients submit (BenchmarkQueryUnderIngest: queries never wait for scheduling).
//   - bench_ingest_test.go: controller ingest, durable jobs/s from concurrent RPC clients, and
//     the controller's peak RSS (issue 9).
//   - bench_fanout_test.go, bench_scale_test.go: ping sweeps on 1,000 to 20,000 emulated
//     nodes (also with 30 % of them dead), the registration storm after a controller
//     restart, and wide srun launches (issue 9).
//   - bench_memory_test.go: the controller's resident memory with 20,000 nodes and 100,000
//     pending jobs, `ctld_rss_20k_nodes_100k_jobs: N MB` (issue 9; run with -benchtime 1x).
//   - bench_primitives_test.go: this machine's floors (an empty Go program's start, /bin/true,
//     `bash -c true`, a 512-byte fsync), from which issue 9's bounds are built.
//
// testsuite/scripts/sidebyside.sh runs measure.sh on the reference (up.sh 16) and on a
// 16-node Orbit cluster in one run, with the primitives, and prints the ratios.
//
// Run them with `go test -run '^$' -bench . ./testsuite/bench/`.
//
// It imports only testsuite/cluster and the packages a command would; never daemon code.
package bench
