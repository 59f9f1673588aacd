#!/bin/bash
#SBATCH --chdir=/var/tmp
true
