#!/bin/bash
#SBATCH --begin=garbage
true
