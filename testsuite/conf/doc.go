// Package conf_test runs the real `slurmctld -t` on configuration files written the way sites
// write them: the examples Debian ships and site-shaped files under testdata/good must be
// accepted, the broken ones under testdata/bad rejected with the exact file:line messages in
// their expected.stderr. record.sh stores the reference Slurm's verdict on each file
// (slurm.verdict) so the test also checks that Slurm agrees and that Orbit repeats Slurm's
// wording. A user command (sinfo) reading the broken files must print exactly the lines the
// reference's commands print, without Orbit's file:line (sinfo_conf_errors_test.go). The
// test itself never needs the reference.
package conf_test
