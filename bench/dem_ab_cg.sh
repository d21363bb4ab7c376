#!/bin/sh
# dem_ab_cg.sh — bench/dem_ab.sh counted instead of timed, for a machine whose clock is shared:
# two builds of rubble on the benchmark's states (bench/dem.sh makes them in RBL_BENCH_WORK,
# default build/bench-dem), one thread, each run under cachegrind (instructions only) for LO
# and HI steps; the instructions a particle-step are (Ir(HI) - Ir(LO)) / (HI - LO) / N, so that
# reading the grains, the first neighbour build and the frames cancel. One CSV row per state
# and size: both builds' counts and their ratio (second / first).
# Usage: bench/dem_ab_cg.sh OLD_RUBBLE NEW_RUBBLE [states] [sizes] [LO] [HI]
set -eu
OLD=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NEW=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
STATES=$(echo "${3:-collapse,settle,hertz,poly3}" | tr ',' ' ')
SIZES=$(echo "${4:-1e5}" | tr ',' ' ')
LO=${5:-10}
HI=${6:-40}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${RBL_BENCH_WORK:-$ROOT/build/bench-dem}
cd "$WORK"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # PROGRAM SCENE STEPS: the instructions of the whole run
    OMP_WAIT_POLICY=passive valgrind --tool=cachegrind --cache-sim=no \
        --cachegrind-out-file="$out/cg.out" "$1" run "$2" --threads 1 --quiet --steps "$3" \
        --output "$out/run" > /dev/null 2>&1
    awk '/^summary/ { print $2 }' "$out/cg.out"
}
echo "state,n,old_per_particle_step,new_per_particle_step,new/old"
for size in $SIZES; do
    n=$(awk -v s="$size" 'BEGIN { printf "%d", s }')
    for state in $STATES; do
        [ -e "${state}_$n.yaml" ] || { echo "no ${state}_$n.yaml in $WORK: run bench/dem.sh first" >&2; exit 1; }
        o1=$(count "$OLD" "${state}_$n.yaml" "$LO"); o2=$(count "$OLD" "${state}_$n.yaml" "$HI")
        w1=$(count "$NEW" "${state}_$n.yaml" "$LO"); w2=$(count "$NEW" "${state}_$n.yaml" "$HI")
        awk -v s="$state" -v n="$n" -v a="$o1" -v b="$o2" -v c="$w1" -v d="$w2" -v k="$((HI - LO))" \
            'BEGIN { o = (b - a) / k / n; w = (d - c) / k / n
                     printf "%s,%d,%.3f,%.3f,%.6f\n", s, n, o, w, w / o }'
    done
done
