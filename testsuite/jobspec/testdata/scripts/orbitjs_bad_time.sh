#!/bin/bash
#SBATCH --time=abc
true
