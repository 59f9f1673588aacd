#!/usr/bin/env bash
# fuzz-all.sh: runs every Go fuzz target in the repository for FUZZTIME each (default 40000x).
#
# The budget is a count of executions, not a duration: with a duration, Go 1.26's fuzzing
# coordinator can turn its own deadline into a failure with no crashing input when a worker is
# slow to stop (go.dev/issue/75804, fixed in Go 1.27). A count has no deadline to race.
#
# A crash fails the run: go test saves the failing input under the package's
# testdata/fuzz/<Target>/, and from then on plain `go test` replays it too. A failure that saved
# no input is the fuzzing engine itself giving up (a worker the coordinator lost under load);
# that target is run once more, and fails the run if it fails again. Nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
FUZZTIME=${FUZZTIME:-40000x}
log=$(mktemp); trap 'rm -f "$log"' EXIT
status=0; count=0

corpus_size() { { find "$1/testdata/fuzz/$2" -type f 2>/dev/null || true; } | wc -l; }

while IFS=: read -r file name; do
  pkg=./$(dirname "$file")
  count=$((count+1))
  for try in 1 2; do
    before=$(corpus_size "$pkg" "$name")
    again=""; [ "$try" = 2 ] && again=", again"
    echo "fuzz: $pkg $name ($FUZZTIME$again)"
    if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" >"$log" 2>&1; then
      break
    fi
    cat "$log"
    if [ "$(corpus_size "$pkg" "$name")" != "$before" ] || [ "$try" = 2 ]; then
      echo "fuzz: $pkg $name FAILED"; status=1; break
    fi
    echo "fuzz: $pkg $name: the engine failed without a crashing input; running it again"
  done
done < <(grep -rEo --include='*_test.go' '^func (Fuzz[A-Za-z0-9_]+)' . | sed -E 's#^\./##; s#:func #:#' | sort)
echo "fuzz: $count targets run"
exit $status
