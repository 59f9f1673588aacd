#!/bin/bash
#SBATCH --time=UNLIMITED
true
