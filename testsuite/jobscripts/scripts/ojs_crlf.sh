#!/bin/bash
#SBATCH -o crlf.out
echo "edited on windows"
