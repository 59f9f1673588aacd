#!/bin/bash
# Records the batch environment the reference Slurm (22.05) gives a job script, for the cases
# env_batch_test.go replays: one file per case, the SLURM_*, ENVIRONMENT, HOSTNAME and TMPDIR
# variables as `env | sort` prints them. Needs the live reference (SLURM_CONF set) and is run
# by `make compat` or by hand: slurmd/slurmstepd/testdata/record.sh
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d /tmp/orbit-env-record.XXXXXX)
trap 'rm -rf "$out"' EXIT
chmod 755 "$out"
sb=/usr/bin/sbatch
declare -A cases=(
	[default]="-J envrec-default"
	[ntasks_cpus_mem]="-J envrec-ncm -n 4 -c 2 --mem=100M"
	[array]="-J envrec-array --array=1-2 -t 5"
	[pernode_memcpu_export]="-J envrec-pn -N1 --ntasks-per-node=2 --mem-per-cpu=10M --export=NONE"
)
ids=()
for c in "${!cases[@]}"; do
	# shellcheck disable=SC2086
	id=$(cd "$out" && $sb --parsable ${cases[$c]} -o "$out/$c-%a.out" --wrap 'env | sort')
	ids+=("${id%%;*}")
done
for _ in $(seq 600); do
	[ -z "$(/usr/bin/squeue -h -j "$(IFS=,; echo "${ids[*]}")" 2>/dev/null)" ] && break
	sleep 0.1
done
for c in "${!cases[@]}"; do
	f="$out/$c-4294967294.out"
	[ "$c" = array ] && f="$out/$c-1.out"
	grep -E '^(SLURM|SLURMD|ENVIRONMENT|HOSTNAME|TMPDIR)[A-Z_]*=' "$f" > "env_$c.golden"
done
echo "recorded ${#cases[@]} cases in $(pwd)"
