#!/bin/bash
#SBATCH --dependency=after:1+5
true
