#!/bin/bash
#SBATCH --time 1-0:0:30
true
