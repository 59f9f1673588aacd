#!/bin/bash
# Records the environment the reference Slurm (22.05) gives the tasks of an srun step, for
# env_test.go: one file per case with task 0's SLURM_*/SLURMD_* variables as `env | sort`
# prints them (values differ between clusters; the tests compare the names, and the values
# that follow from the layout). Needs the live reference (SLURM_CONF set); run by
# `make compat` or by hand: srun/testdata/record.sh
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d /tmp/orbit-srun-record.XXXXXX)
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"
declare -A cases=(
	[batch_n2]="-J srunrec-n2 -n2"
	[batch_n3_c2]="-J srunrec-n3c2 -n3 -c2"
)
ids=()
for c in "${!cases[@]}"; do
	# shellcheck disable=SC2086
	id=$(cd "$out" && /usr/bin/sbatch --parsable ${cases[$c]} -o "$out/$c.out" \
		--wrap 'srun -l env | sort')
	ids+=("${id%%;*}")
done
for _ in $(seq 600); do
	[ -z "$(/usr/bin/squeue -h -j "$(IFS=,; echo "${ids[*]}")" 2>/dev/null)" ] && break
	sleep 0.1
done
for c in "${!cases[@]}"; do
	# Task 0's lines ("0: NAME=value" or " 0: ..." when labels are padded), label removed.
	sed -nE 's/^ *0: //p' "$out/$c.out" | grep -E '^(SLURM|SLURMD)[A-Z_]*=' | sort > "env_$c.golden"
done
echo "recorded ${#cases[@]} cases in $(pwd)"
