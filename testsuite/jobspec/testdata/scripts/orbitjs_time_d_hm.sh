#!/bin/bash
#SBATCH --time=2-3:04
true
