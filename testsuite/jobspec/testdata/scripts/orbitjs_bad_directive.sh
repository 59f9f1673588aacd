#!/bin/bash
#SBATCH -N 1 // two nodes please
true
