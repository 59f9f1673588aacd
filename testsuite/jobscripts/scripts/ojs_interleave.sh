#!/bin/bash
#SBATCH -o both.out
# stdout and stderr share one file when only --output is given.
echo "line 1 (stdout)"
echo "line 2 (stderr)" >&2
echo "line 3 (stdout)"
