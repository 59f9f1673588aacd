#!/bin/bash
#SBATCH -J ojs_stored_opts
#SBATCH -o stored.out
#SBATCH --gpu-bind=closest --gpu-freq=high --ntasks-per-socket=2
#SBATCH --network=sw1 --mcs-label=lab --bb=bbspec --power=level
#SBATCH --cluster-constraint=cf --container=/tmp --contiguous
#SBATCH --spread-job --kill-on-invalid-dep=yes
# Options Slurm only stores and exports on a cluster without the plugins that would act on them.
env | grep -E '^SLURM_(GPU_BIND|GPU_FREQ|NTASKS_PER_SOCKET|CONTAINER|NETWORK)=' | sort
scontrol show job "$SLURM_JOB_ID" | grep -E 'MCS_label|NtasksPerN|ClusterFeatures|Contiguous|Power|TresBind|TresFreq|BurstBuffer|Container|SpreadJob' | sed 's/^ *//; s/UserId=[^ ]* GroupId=[^ ]* //'
srun --ntasks-per-socket=1 env | grep -E '^SLURM_(NTASKS_PER_SOCKET|CONTAINER)=' | sort
