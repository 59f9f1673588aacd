#!/bin/bash
#SBATCH -z
true
