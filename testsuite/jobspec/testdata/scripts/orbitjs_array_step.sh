#!/bin/bash
#SBATCH --array 0-20:5%3
true
