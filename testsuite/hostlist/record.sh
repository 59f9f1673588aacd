#!/usr/bin/env bash
# record.sh — record the reference Slurm's answers for the hostlist differential test.
#
# Runs the reference scontrol (SCONTROL, default /usr/bin/scontrol; needs SLURM_CONF) on every
# case of testdata/expressions.txt (as `show hostnames|hostlist|hostlistsorted EXPR`) and of
# testdata/cli.txt (whole command lines), and writes exit code, stdout and stderr of each to
# testdata/golden/{expressions,cli}.golden. hostlist_test.go replays them against Orbit.
#
# Golden record format (byte counts make it exact; outputs over 64 KiB are kept as a digest):
#   ### expr <command> <line of expressions.txt>   |   ### cli <line of cli.txt>
#   exit <code>
#   stdout <bytes>\n<bytes of stdout>\n            |   stdout-sha256 <bytes> <hex>
#   stderr <bytes>\n<bytes of stderr>\n
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ref=${SCONTROL:-/usr/bin/scontrol}
: "${SLURM_CONF:?must point at the slurm.conf of the reference Slurm}"
big=65536

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=$work/files
cp -r "$here/testdata/files" "$files"
# Large inputs are generated rather than stored; hostlist_test.go makes the same files.
awk 'BEGIN{ORS=""; print "a["; for(i=0;i<262143;i++) print i%10 ","; print "1]\n"}' >"$files/max-ranges.txt"
awk 'BEGIN{ORS=""; print "a["; for(i=0;i<262144;i++) print i%10 ","; print "1]\n"}' >"$files/too-many-ranges.txt"
awk 'BEGIN{for(i=0;i<150000;i++) printf "n%d\n", i}' >"$files/big.txt"

mkdir -p "$here/testdata/golden"

# run HEADER STDIN [ENV=VALUE...] -- ARG... : run the reference as "scontrol" with STDIN as its
# standard input and append a record.
run() {
	local header=$1 stdin=$2; shift 2
	local envs=()
	while [[ $1 != -- ]]; do envs+=("$1"); shift; done
	shift
	local rc=0
	env -i PATH=/usr/bin:/bin SLURM_CONF="$SLURM_CONF" "${envs[@]}" \
		bash -c 'exec -a scontrol "$0" "$@"' "$ref" "$@" \
		<"$stdin" >"$work/out" 2>"$work/err" || rc=$?
	if ((rc >= 128)); then
		echo "record.sh: reference died with signal $((rc - 128)) on: $header" >&2
		echo "record.sh: such cases cannot be matched; remove them from the case list" >&2
		exit 1
	fi
	sed -i "s|$files|@DIR@|g" "$work/out" "$work/err"
	local n
	{
		printf '### %s\nexit %d\n' "$header" "$rc"
		n=$(stat -c %s "$work/out")
		if ((n > big)); then
			printf 'stdout-sha256 %d %s\n' "$n" "$(sha256sum <"$work/out" | cut -d' ' -f1)"
		else
			printf 'stdout %d\n' "$n"; cat "$work/out"; printf '\n'
		fi
		printf 'stderr %d\n' "$(stat -c %s "$work/err")"; cat "$work/err"; printf '\n'
	} >>"$golden"
}

# cases FILE: the case lines of FILE (no comments, no blank lines).
cases() { grep -v -e '^#' -e '^$' "$1"; }

golden=$work/expressions.golden
: >"$golden"
while IFS= read -r line; do
	printf -v expr '%b' "$line"
	for cmd in hostnames hostlist hostlistsorted; do
		run "expr $cmd $line" /dev/null -- show "$cmd" "$expr"
	done
done < <(cases "$here/testdata/expressions.txt")
mv "$golden" "$here/testdata/golden/expressions.golden"

golden=$work/cli.golden
: >"$golden"
while IFS= read -r line; do
	envs=() args=()
	: >"$work/stdin"
	IFS=' ' read -r -a words <<<"$line"
	for w in "${words[@]}"; do
		w=${w//@DIR@/$files}
		if [[ ${#args[@]} -eq 0 && $w == ENV:* ]]; then
			printf -v w '%b' "${w#ENV:}"
			envs+=("$w")
		elif [[ ${#args[@]} -eq 0 && $w == STDIN:* ]]; then
			printf '%b' "${w#STDIN:}" >"$work/stdin"
		else
			printf -v w '%b' "$w"
			args+=("$w")
		fi
	done
	run "cli $line" "$work/stdin" "${envs[@]}" -- "${args[@]}"
done < <(cases "$here/testdata/cli.txt")
mv "$golden" "$here/testdata/golden/cli.golden"

echo "record.sh: $(grep -c '^### ' "$here/testdata/golden/expressions.golden") expression cases," \
	"$(grep -c '^### ' "$here/testdata/golden/cli.golden") command-line cases recorded"
