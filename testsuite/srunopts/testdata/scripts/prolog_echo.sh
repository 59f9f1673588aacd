#!/bin/sh
echo "prolog args: $* ctx=$SLURM_SCRIPT_CONTEXT job=${SLURM_JOB_ID:+set}"
