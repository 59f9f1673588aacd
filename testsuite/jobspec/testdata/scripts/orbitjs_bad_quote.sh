#!/bin/bash
#SBATCH --job-name="unterminated
true
