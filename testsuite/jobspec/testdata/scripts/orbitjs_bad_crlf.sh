#!/bin/bash
#SBATCH -N 1
true
