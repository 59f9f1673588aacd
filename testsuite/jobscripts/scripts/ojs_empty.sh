#!/bin/bash
#SBATCH -J ojs_empty
#SBATCH --time=1
