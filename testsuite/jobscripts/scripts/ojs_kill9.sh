#!/bin/bash
#SBATCH -o kill9.out
echo "about to be killed"
kill -9 $$
echo "not reached"
