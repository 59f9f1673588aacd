#!/bin/bash
#SBATCH --time=5
#SBATCH --job-name=orbitjs_from_script
true
