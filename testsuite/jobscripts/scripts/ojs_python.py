#!/usr/bin/env python3
#SBATCH --job-name=ojs_python
#SBATCH --output=python-%j.out
#SBATCH --error=python-%j.err
#SBATCH --ntasks=2
import os
import sys

names = sorted(k for k in os.environ if k.startswith("SLURM_"))
print("python batch job, ntasks =", os.environ.get("SLURM_NTASKS"))
for n in names:
    print(n)
print("warning: nothing is wrong", file=sys.stderr)
sys.exit(0)
