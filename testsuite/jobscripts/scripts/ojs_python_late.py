#!/usr/bin/env python3
#SBATCH -o py_late.out
import os
#SBATCH -J ignored_after_code
print("job name:", os.environ["SLURM_JOB_NAME"])
print("array task:", os.environ.get("SLURM_ARRAY_TASK_ID", "none"))
