#!/bin/bash
#SBATCH -d afterany:1:2,afternotok:3
true
