#!/bin/bash
#SBATCH -J ojs_trap
#SBATCH -o trap.out
cleanup() {
	echo "caught SIGTERM, cleaning up"
	echo "checkpoint" > checkpoint.dat
	exit 143
}
trap cleanup TERM
echo "working"
kill -TERM $$
echo "not reached"
