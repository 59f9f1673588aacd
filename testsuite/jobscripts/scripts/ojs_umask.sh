#!/bin/bash
#SBATCH -o umask.out
umask
touch created.txt
stat -c '%A' created.txt
