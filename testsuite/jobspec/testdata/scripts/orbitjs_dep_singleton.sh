#!/bin/bash
#SBATCH --dependency=singleton
#SBATCH -J orbitjs_single
true
