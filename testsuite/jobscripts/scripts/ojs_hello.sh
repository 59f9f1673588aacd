#!/bin/bash
# The smallest job most users ever submit: defaults everywhere.
echo "Hello from job $SLURM_JOB_ID"
echo "running on $SLURMD_NODENAME with $SLURM_CPUS_ON_NODE cpu(s)"
