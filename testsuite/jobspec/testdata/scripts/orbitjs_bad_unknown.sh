#!/bin/bash
#SBATCH --not-an-option
true
