#!/bin/bash
#SBATCH -o /tmp/orbitjs_%x_%j.out
#SBATCH -e /tmp/orbitjs_%u_%j.err
true
