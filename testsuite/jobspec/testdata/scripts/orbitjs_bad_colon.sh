#!/bin/bash
#SBATCH : -N 2
true
