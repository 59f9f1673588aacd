#!/bin/bash
#SBATCH --time=0:30
true
