#!/bin/bash
#SBATCH -a 0,3,5-9:2
true
