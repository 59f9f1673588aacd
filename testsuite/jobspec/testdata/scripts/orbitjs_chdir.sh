#!/bin/bash
#SBATCH -D /tmp
#SBATCH -o rel-%j.out
true
