#!/usr/bin/env bash
# record-compat.sh: re-records every golden file under testsuite/ from a live reference Slurm
# 22.05 (../shared/reference-slurm/up.sh must have been run; root needed for sbatch -H).
# Each area keeps its own recorder as testsuite/<area>/record.sh (or, for goldens that belong to
# one package, <package>/testdata/record.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
REF=${REF_DIR:-../shared/reference-slurm}
[ -f /tmp/slurm-anchor/env.sh ] || "$REF/up.sh" 1
# shellcheck disable=SC1091
source /tmp/slurm-anchor/env.sh
for rec in testsuite/*/record.sh */*/testdata/record.sh; do
  [ -f "$rec" ] || continue
  echo "record-compat: $rec"
  bash "$rec"
done
