#!/bin/bash
#SLURM --ntasks=2
true
