#!/bin/bash
#SBATCH --time
