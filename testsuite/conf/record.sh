#!/usr/bin/env bash
# record.sh: asks the reference Slurm 22.05 what it thinks of every configuration under
# testdata/good and testdata/bad, and writes its verdict next to each as slurm.verdict:
#   first line "accepted" or "rejected", then Slurm's error lines (the "scontrol: " prefix and
#   the temp path removed). The reference's parser is reached through
#   `SLURM_CONF=<file> scontrol show hostnames x`, which reads and validates slurm.conf as every
#   Slurm client does (node/partition cross-checks and companion files are the daemons' job, so
#   the Go test knows which bad cases only slurmctld can catch).
# Needs the reference installed (/usr/bin/scontrol); never touches the running reference's files.
set -euo pipefail
cd "$(dirname "$0")/testdata"
SCONTROL=${SCONTROL:-/usr/bin/scontrol}
for conf in good/*/slurm.conf bad/*/slurm.conf; do
  dir=$(dirname "$conf")
  abs=$(cd "$dir" && pwd)
  # A missing Include makes Slurm retry for 60 s; 5 s is enough to see the first error.
  if out=$(SLURM_CONF="$abs/slurm.conf" timeout 5 "$SCONTROL" show hostnames x 2>&1 >/dev/null); then
    verdict=accepted
  else
    verdict=rejected
  fi
  {
    echo "$verdict"
    # Drop informational lines, make paths relative to testdata/, keep the first 20 lines
    # (an Include loop makes Slurm recurse until it runs out of file descriptors).
    printf '%s\n' "$out" | grep -E '^scontrol: (error|fatal):' | sed -e "s#$abs/*#$dir/#g" -e 's#^scontrol: ##' | head -n 20 || true
  } > "$dir/slurm.verdict"
  echo "record: $dir: $verdict"
done

# show config golden: the reference's own slurm.conf and what its controller prints for it.
mkdir -p showconfig
cp "${SLURM_CONF:-/tmp/slurm-anchor/etc/slurm.conf}" showconfig/slurm.conf
SLURM_CONF="${SLURM_CONF:-/tmp/slurm-anchor/etc/slurm.conf}" "$SCONTROL" show config > showconfig/reference.txt
# Canonical values for what only the running controller knows (showconfig_test.go reads them
# back from this file, so any value compares the same) and for up.sh's dated header line, so
# that re-recording does not churn the goldens.
sed -i -E -e 's/^(Configuration data as of ).*/\12000-01-01T00:00:00/' \
	-e 's/^(BOOT_TIME +=).*/\1 2000-01-01T00:00:00/' -e 's/^(NEXT_JOB_ID +=).*/\1 1/' showconfig/reference.txt
sed -i -E '1s/^(# Written by .* on )[0-9T:-]+Z;/\12000-01-01T00:00:00Z;/' showconfig/slurm.conf
echo "record: showconfig: $(wc -l < showconfig/reference.txt) lines"
