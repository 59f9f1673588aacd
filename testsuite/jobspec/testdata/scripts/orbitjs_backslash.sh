#!/bin/bash
#SBATCH --job-name=orbitjs\ escaped
true
