#!/bin/sh
# Self-gravity over several processes (issue 47): what the tree built apart sends, against the
# locally essential tree's model and against the gather it replaced. A cubic lattice cloud of
# N grains (0.5 mm, 1.01 mm apart, tree with theta 0.5, every step) runs 4 steps (5
# evaluations) on P processes of one thread; from the run's report: the bytes self-gravity
# sent (all processes), of them the trees' (pieces' roots, boxes and pruned subtrees: the
# locally essential trees), and the largest process's peak memory.
# The model: a process's range of N_r = N / P grains is a region whose surface the other
# processes' trees must open down to their leaves, so the trees it receives grow as
# N_r^(2/3) (its surface), while the grains it sorts and the fields it gets back grow as N_r
# and the gather sent every process N grains (48 bytes each).
# Usage: bench/gravity_ranks.sh RUBBLE [P]   (default 4)
# Writes docs/bench/gravity-ranks.csv and prints the table docs/parallel.md quotes.
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
P=${2:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CSV=$ROOT/docs/bench/gravity-ranks.csv
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
MPI="mpirun --allow-run-as-root --oversubscribe"
echo "n,ranks,evaluations,bytes_per_rank_eval,tree_bytes_per_rank_eval,gather_bytes_per_rank_eval,peak_mib_largest,seconds_gravity" > "$CSV"
printf '| N | N / P | sent a process an evaluation | of it the trees | the gather sent | trees / (N/P)^(2/3) | largest peak | self-gravity |\n|---|---|---|---|---|---|---|---|\n'
for n in 50000 100000 200000 400000; do
    half=$(awk -v n="$n" 'BEGIN { printf "%.6f", (0.00101 * (n ^ (1 / 3)) + 0.0012) / 2 }')
    cat > cloud.yaml <<YAML
domain: {open: true}
materials: [{name: glass, density: 2500}]
contact: {normal: linear, damping: linear, tangential: spring, kn: 2000, restitution: 0.5, friction: 0.5}
self_gravity: {G: 6.674e-11, method: tree, theta: 0.5}
grains:
  - lattice: {min: [-$half, -$half, -$half], max: [$half, $half, $half], count: $n, spacing: 0.00101}
    radius: 0.0005
run: {steps: 4, dt: auto}
YAML
    rm -rf out
    OMP_WAIT_POLICY=PASSIVE $MPI -np "$P" "$RUBBLE" run cloud.yaml --output out --threads 1 > log.txt
    line=$(grep '^self-gravity ' log.txt)
    evals=$(echo "$line" | sed -n 's/.*s, \([0-9]*\) evaluations.*/\1/p')
    apart=$(echo "$line" | sed -n 's/.*built apart in \([0-9]*\),.*/\1/p')
    [ "$apart" = "$evals" ] || { echo "N = $n: the tree was not built apart in every evaluation: $line" >&2; exit 1; }
    bytes=$(echo "$line" | sed -n 's/.*; \([0-9.e+]*\) bytes sent.*/\1/p')
    trees=$(echo "$line" | sed -n 's/.*(\([0-9.e+]*\) of them the trees.*/\1/p')
    secs=$(echo "$line" | sed -n 's/^self-gravity *\([0-9.]*\) s.*/\1/p')
    peak=$(sed -n 's/^peak memory *\([0-9.]*\) MiB.*/\1/p' log.txt)
    awk -v n="$n" -v p="$P" -v e="$evals" -v b="$bytes" -v t="$trees" -v m="$peak" -v s="$secs" -v csv="$CSV" 'BEGIN {
        per = b / (p * e); tree = t / (p * e); gather = n / p * 48 * (p - 1); nr = n / p
        printf "%d,%d,%d,%.0f,%.0f,%.0f,%s,%s\n", n, p, e, per, tree, gather, m, s >> csv
        printf "| %d | %d | %.2f MB | %.2f MB | %.2f MB | %.0f B | %s MiB | %s s |\n", n, nr, per / 1e6, tree / 1e6, gather / 1e6, tree / nr ^ (2 / 3), m, s }'
done
