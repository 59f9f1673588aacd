// Package schedeval evaluates Orbit's schedulers on workload traces with the ssim
// simulator: run.sh produces REPORT.md (FCFS, EASY backfill with user estimates and with
// the runtime as estimate on the whole KTH-SP2 trace, on the 100-node cluster of
// slurm.conf here), and the tests run the ssim binary on a 50-job stretch of the trace
// (testdata/kth50.swf) and check what a user of ssim sees. The tests need neither the
// reference Slurm nor the full trace.
package schedeval
