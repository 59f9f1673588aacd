#!/bin/bash
#SBATCH -n 2 -- -N 3
true
