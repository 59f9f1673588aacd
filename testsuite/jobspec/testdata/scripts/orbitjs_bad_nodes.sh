#!/bin/bash
#SBATCH --nodes=4-2
true
