#!/bin/bash
#SBATCH -J ojs_chain
#SBATCH -n 2
#SBATCH -o chain.out
# Job chains: the last thing a job does is submit the next one.
next=$(sbatch --parsable -J ojs_chain_next -o chained.out --wrap 'echo "next ntasks=${SLURM_NTASKS:-unset} job name=$SLURM_JOB_NAME"; env | grep ^SLURM_ | cut -d= -f1 | sort')
echo "submitted the next job: ${next:+yes}"
# Wait (boundedly) for it so that its output is there when this job ends.
for i in $(seq 1 60); do
	[ -s chained.out ] && break
	sleep 1
done
echo "next job wrote its output: $([ -s chained.out ] && echo yes || echo no)"
