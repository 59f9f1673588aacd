// Package sinfo holds the differential test of Orbit's sinfo against the reference Slurm:
// record.sh runs the command lines of cases.txt against the live reference and stores what
// it printed and its exit status under testdata/; the Go test starts an Orbit cluster of the
// reference's shape (one node n1 of 2x32 cores and 257000 MB in partition debug, with as many
// CPUs allocated as the reference had while recording), runs Orbit's sinfo binary with the
// same command lines and compares byte for byte. It needs no reference itself.
//
// Only tests live here. They may import conf/, compat/, internal/ (cmdclient, testbin, wire,
// auth) and, to run the daemons in-process, slurmctld/ctld and slurmd/node.
package sinfo
