#!/bin/bash
#SBATCH -t 10:30
true
