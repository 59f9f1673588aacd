#!/bin/bash
#SBATCH -e %x.err
echo "to the default output file"
echo "to the named error file" >&2
