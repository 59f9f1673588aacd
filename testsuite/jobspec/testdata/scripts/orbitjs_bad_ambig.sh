#!/bin/bash
#SBATCH --cpus=2
true
