#!/bin/bash
#SBATCH --out=orbitjs-%j.log
#SBATCH --err=orbitjs-%j.err
#SBATCH --job=orbitjs_prefix
#SBATCH --ntasks-per-n=2
true
