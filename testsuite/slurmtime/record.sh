#!/usr/bin/env bash
# record.sh: records how the reference Slurm 22.05 parses and prints time limits (--time),
# memory sizes (--mem), dates (--begin) and output file patterns (-o), into testdata/*.tsv.
# Needs a live reference (SLURM_CONF set, root); submits held jobs named tm_rec* and cancels
# them, and runs a few trivial batch jobs in a temporary directory for the file patterns.
# Everything runs with TZ=UTC so the goldens do not depend on the recording machine's zone.
set -uo pipefail
cd "$(dirname "$0")"
export TZ=UTC
SBATCH=/usr/bin/sbatch
SCONTROL=/usr/bin/scontrol
SCANCEL=/usr/bin/scancel
SQUEUE=/usr/bin/squeue
OUT=testdata
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/tm_rec.XXXXXX)
trap '$SCANCEL -n tm_rec >/dev/null 2>&1; rm -rf "$WORK"' EXIT

# field JOB KEY: one Key=value of `scontrol show job`.
field() { $SCONTROL show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }

# submit ARGS...: prints "rc<TAB>jobid<TAB>stderr-with-\n-escaped".
submit() {
  local out err rc
  out=$($SBATCH -H --parsable --job-name=tm_rec --chdir="$WORK" "$@" --wrap=true 2>"$WORK/err")
  rc=$?
  err=$(sed ':a;N;$!ba;s/\n/\\n/g' "$WORK/err")
  printf '%s\037%s\037%s' "$rc" "${out%%;*}" "$err"
}

# --time: input, exit code, TimeLimit= or the error text.
{
  while IFS= read -r t; do
    IFS=$'\037' read -r rc job err < <(submit --time="$t"; echo)
    val=""
    [ "$rc" = 0 ] && { val=$(field "$job" TimeLimit); $SCANCEL "$job"; }
    printf '%s\t%s\t%s\t%s\n' "$t" "$rc" "$val" "$err"
  done <<'LIST'
0
1
5
59
60
61
1440
0:30
0:59
0:60
1:00
1:30
2:60:15
0:0:15
0:60:0
0:0:0
0-1:60:15
1-1:60:15
365-1:60:15
365-0:0:0
1-0
1-2
1-2:3
1-2:3:4
5-
0-00:60:00
300:00:00
3000000:00
99999999999
-5
-1
INFINITE
infinite
UNLIMITED
unlimited
abc

-0:-0:-0
 0:0:0 
1:
1::
1:2:3:4
1-2-3
1:2-3
1.5
+5
-0-1
5m
LIST
} >"$OUT/timelimit.tsv"

# --mem: input, exit code, MinMemoryNode= or the error text. (MinMemoryNode=0 means "all the
# node's memory"; the parsed value is still 0.)
{
  while IFS= read -r m; do
    IFS=$'\037' read -r rc job err < <(submit --mem="$m"; echo)
    val=""
    [ "$rc" = 0 ] && { val=$(field "$job" MinMemoryNode); $SCANCEL "$job"; }
    printf '%s\t%s\t%s\t%s\n' "$m" "$rc" "$val" "$err"
  done <<'LIST'
0
1
7
500
1023
1024
1025
1536
2048
2560
3072
257000
262144
1048576
1572864
0K
1K
1024K
1025K
1500K
1048576K
500M
500m
4G
4g
1g
2T
10GB
10Gb
10gb
1MB
1KB
 7
+8
-5
1.5G
5X
1G2
GB
4GiB

LIST
} >"$OUT/mem.tsv"

# --begin with absolute dates or refused input: input, exit code, EligibleTime= or error text.
{
  while IFS= read -r b; do
    IFS=$'\037' read -r rc job err < <(submit --begin="$b"; echo)
    val=""
    [ "$rc" = 0 ] && { val=$(field "$job" EligibleTime); $SCANCEL "$job"; }
    printf '%s\t%s\t%s\t%s\n' "$b" "$rc" "$val" "$err"
  done <<'LIST'
2030-12-25
2030-12-25T08:09
2030-12-25T08:09:10
2030-2-3
12/25/30
12/25/30-14:00
12/25/30-14:00:30
12.25.30
122530
02/31/30
uts1900000000
UTS1900000000
uts5
garbage

Today
25:00
10:6
10:60
10:30:61
13:00pm
now+
now+1h
now*2
13/01/30
12/32/30
2030-13-01
now+1fortnight
LIST
} >"$OUT/begin.tsv"

# --begin relative to now: now (epoch), input, EligibleTime=. A case is retried when the clock
# ticked while sbatch ran, so the recorded now is the one sbatch saw.
{
  while IFS= read -r b; do
    for _ in 1 2 3 4 5; do
      t0=$(date +%s)
      IFS=$'\037' read -r rc job err < <(submit --begin="$b"; echo)
      t1=$(date +%s)
      val=""
      [ "$rc" = 0 ] && { val=$(field "$job" EligibleTime); $SCANCEL "$job"; }
      [ "$t0" = "$t1" ] && break
    done
    printf '%s\t%s\t%s\t%s\t%s\n' "$t0" "$b" "$rc" "$val" "$err"
  done <<'LIST'
now
now+60
now+1hour
now+2hours
now+90minutes
now+1day
now+1week
now+2weeks
now+5 minutes
NOW+3SECONDS
now-1hour
today
tomorrow
midnight
noon
fika
teatime
elevenses
tomorrow noon
today teatime
23:59
00:00
12:00am
12:00pm
4:00pm
11:59:59
12/31
01/01
LIST
} >"$OUT/begin_relative.tsv"

# Output file patterns: each job runs in its own directory; recorded are the job id, the
# StdOut= scontrol shows while it is held, and the name of the file the job created.
printf '%s\t%s\n' "$(hostname)" "$(id -un)" >"$OUT/pattern_host.tsv"
{
  i=0
  while IFS= read -r p; do
    i=$((i + 1))
    d="$WORK/p$i"
    mkdir -p "$d"
    job=$($SBATCH -H --parsable --job-name=tm_rec --chdir="$d" -o "$p" --wrap=true)
    job=${job%%;*}
    show=$(field "$job" StdOut)
    $SCONTROL release "$job"
    for _ in $(seq 60); do
      [ -z "$($SQUEUE -h -j "$job" -o %i 2>/dev/null)" ] && break
      sleep 0.5
    done
    created=$(cd "$d" && ls -A | head -1)
    printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$job" "${show#"$d"/}" "$d" "$created" | sed "s#$d#<dir>#g"
  done <<'LIST'
o_%j_%J_%s_%A_%a_%x_%u_%N_%n_%t.out
w_%5j_%12j_%3a_%5x_%2s_%03t.out
u_%z_%5z_%12z_%%_%%j_%b_%r.out
esc\_%j.out
p_%
t_%5
q_%5%j
dbl\\x_%j
%%%j
%%%%j
%0j_%1j_%10j_%11j
pct%
LIST
} >"$OUT/pattern.tsv"
# srun -o patterns: a two-task step in its own directory (srun's cwd too, as srun itself opens
# a file that is not per task); recorded are the job id and the files created, '|'-joined.
{
  i=0
  while IFS= read -r p; do
    i=$((i + 1))
    d="$WORK/s$i"
    mkdir -p "$d"
    # --quiet: a busy reference makes srun say "queued and waiting", which is not the job id.
    job=$(cd "$d" && timeout 60 /usr/bin/srun --quiet -n2 --job-name=tm_rec --chdir="$d" -o "$p" -e all \
      sh -c 'echo "$SLURM_JOB_ID" >&2' 2>&1 </dev/null | head -1)
    created=$(cd "$d" && ls -A | sort | paste -sd'|' -)
    printf '%s\t%s\t%s\n' "$p" "$job" "$created"
  done <<'LIST'
s_%j_%J_%s_%x_%t_%n_%N_%u.out
w_%3t_%2n_%5j.out
pp_%%t.out
t%t%n
d_%%j_%A_%a
esc\_%t
%10t_%12t
u_%5u_%05t_%%5t
x%
q_%5%t
%%%t
1
none
all
LIST
} >"$OUT/srun_pattern.tsv"
echo "record.sh: wrote $(cat "$OUT"/*.tsv | wc -l) lines to $PWD/$OUT"
