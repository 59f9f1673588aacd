# normalise.sed — what record.sh and sdiag_test.go do to a statistics report before comparing
# (the Go test applies these same rules with this file, then collapses runs of equal lines):
#  - dates become DATE and every number N, keeping the labels and the layout;
#  - each per-RPC and per-user line becomes RPC or USER once its layout matches (name padded
#    to 40 or 16 columns, id right-aligned in 5 or 8), and a run of them becomes one line,
#    since which RPCs were served differs between any two controllers;
#  - "Cycles per minute" is dropped: Slurm prints it only once the statistics are more than a
#    minute old;
#  - the backfill lines Slurm prints only after a backfill cycle (the means, the last cycle's
#    date) are dropped or reduced: whether a cycle ran depends on the two controllers' timing.
s/^(sdiag output at|Data since     |Job states ts: ) [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4} \([0-9]+\)$/\1 DATE (N)/
s/^\tLast cycle when: (N\/A|[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4} \([0-9]+\))$/\tLast cycle when: WHEN/
/^\t(Mean cycle: [0-9]|Depth Mean|Queue length mean|Mean table size)/d
s/^\t[A-Z_]{1,40} *\( *[0-9]+\) count:[0-9]+ +ave_time:[0-9]+ +total_time:[0-9]+$/\tRPC/
s/^\t[^ ]{1,16} *\( *[0-9]+\) count:[0-9]+ +ave_time:[0-9]+ +total_time:[0-9]+$/\tUSER/
/^\tCycles per minute: /d
s/[0-9]+/N/g
