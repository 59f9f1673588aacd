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
# that target is run once more, and fails the run if it fails again. Under heavy load the engine
# can also call a slow worker "hung or terminated unexpectedly" and save whatever input it was
# running: such an input is replayed on its own (plain go test, which runs the target on it
# exactly as a crash would); when the replay passes, the input crashed nothing, it is removed
# and the target runs once more, failing the run if it fails again. Nothing is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
FUZZTIME=${FUZZTIME:-40000x}
log=$(mktemp); trap 'rm -f "$log" "$log.replay"' EXIT
status=0; count=0

corpus_size() { { find "$1/testdata/fuzz/$2" -type f 2>/dev/null || true; } | wc -l; }
corpus_list() { { find "$1/testdata/fuzz/$2" -type f 2>/dev/null || true; } | sort; }

# replays_clean PKG NAME FILE...: every saved input ran, and passed, when run on its own.
replays_clean() {
  local pkg=$1 name=$2; shift 2
  for f in "$@"; do
    local id; id=$(basename "$f")
    go test -count=1 -v -run "^${name}/${id}\$" "$pkg" >"$log.replay" 2>&1 || { cat "$log.replay"; return 1; }
    grep -q -- "--- PASS: ${name}/${id} " "$log.replay" || { cat "$log.replay"; return 1; } # it really ran
  done
}

while IFS=: read -r file name; do
  pkg=./$(dirname "$file")
  count=$((count+1))
  for try in 1 2; do
    before=$(corpus_list "$pkg" "$name")
    again=""; [ "$try" = 2 ] && again=", again"
    echo "fuzz: $pkg $name ($FUZZTIME$again)"
    if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" >"$log" 2>&1; then
      break
    fi
    cat "$log"
    mapfile -t saved < <(comm -13 <(echo "$before") <(corpus_list "$pkg" "$name") | grep . || true)
    if [ "$try" = 2 ]; then
      echo "fuzz: $pkg $name FAILED"; status=1; break
    fi
    if [ "${#saved[@]}" -gt 0 ]; then
      if ! replays_clean "$pkg" "$name" "${saved[@]}"; then
        echo "fuzz: $pkg $name FAILED (the saved input crashes it when replayed)"; status=1; break
      fi
      echo "fuzz: $pkg $name: the saved input ${saved[*]} passes when replayed; the engine lost a slow worker; running it again"
      rm -f -- "${saved[@]}"
      continue
    fi
    echo "fuzz: $pkg $name: the engine failed without a crashing input; running it again"
  done
done < <(grep -rEo --include='*_test.go' '^func (Fuzz[A-Za-z0-9_]+)' . | sed -E 's#^\./##; s#:func #:#' | sort)
echo "fuzz: $count targets run"
exit $status
