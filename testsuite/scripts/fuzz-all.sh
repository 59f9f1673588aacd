#!/usr/bin/env bash
# fuzz-all.sh: runs every Go fuzz target in the repository for FUZZTIME each (default 8s).
# A crash fails the run; go test writes the failing input under the package's testdata/fuzz.
set -euo pipefail
cd "$(dirname "$0")/../.."
FUZZTIME=${FUZZTIME:-8s}
status=0; count=0
while IFS=: read -r file name; do
  pkg=./$(dirname "$file")
  count=$((count+1))
  echo "fuzz: $pkg $name ($FUZZTIME)"
  if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" >/tmp/orbit-fuzz.$$ 2>&1; then
    cat /tmp/orbit-fuzz.$$; status=1
  fi
done < <(grep -rEo --include='*_test.go' '^func (Fuzz[A-Za-z0-9_]+)' . | sed -E 's#^\./##; s#:func #:#' | sort)
rm -f /tmp/orbit-fuzz.$$
echo "fuzz: $count targets run"
exit $status
