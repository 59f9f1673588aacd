#!/bin/bash
#SBATCH -J ojs_rlimit
#SBATCH -o rlimit.out
# The submitting shell set its limits before sbatch (cases.txt's ulimit field: -n 517,
# -s 7777, -f 123456); Slurm propagates them to the batch script and, through srun, to the
# tasks. Words, not numbers, are printed: the node's own limits differ between clusters.
check() {
	for l in "NOFILE -n 517" "STACK -s 7777" "FSIZE -f 123456"; do
		set -- $l
		if [ "$(ulimit $2)" = "$3" ]; then echo "$1 propagated"; else echo "$1 not propagated"; fi
	done
}
echo "batch:"
check
echo "SLURM_RLIMIT variables: $(env | grep -c '^SLURM_RLIMIT_')"
echo "task:"
srun /bin/bash -c "$(declare -f check); check; echo \"SLURM_RLIMIT variables: \$(env | grep -c '^SLURM_RLIMIT_')\""
# A script that changes a limit before srun: the tasks get the script's value.
ulimit -n 300
ulimit -c 0
srun /bin/bash -c 'test "$(ulimit -n)" = 300 && echo "task NOFILE follows the script"; test "$(ulimit -c)" = 0 && echo "task CORE follows the script"'
srun --propagate=CORE /bin/bash -c 'test "$(ulimit -c)" = 0 && echo "--propagate=CORE: CORE follows"; test "$(ulimit -n)" = 300 || echo "--propagate=CORE: NOFILE is the node'"'"'s"'
