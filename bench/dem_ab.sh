#!/bin/sh
# Two builds of rubble, interleaved on the benchmark's states (bench/dem.sh makes them in
# RBL_BENCH_WORK, default build/bench-dem): for each repeat, size and state, the first build
# then the second, each run with the given threads, the two cores' hand-over time
# (bench/core_latency.c) taken just before. One CSV row per run on stdout, then the median of
# each build's particle-steps/s per state and size and their ratio (second / first).
# Usage: bench/dem_ab.sh OLD_RUBBLE NEW_RUBBLE [states] [sizes] [threads] [repeats]
set -eu
OLD=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NEW=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
STATES=$(echo "${3:-collapse,settle,poly10,poly3,flow}" | tr ',' ' ')
SIZES=$(echo "${4:-1e5,1e6}" | tr ',' ' ')
THREADS=${5:-2}
REPEAT=${6:-4}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${RBL_BENCH_WORK:-$ROOT/build/bench-dem}
cd "$WORK"
[ -x core_latency ] || cc -O2 -pthread "$ROOT/bench/core_latency.c" -o core_latency
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "state,n,build,threads,core_ns,particle_steps_per_s"
for r in $(seq "$REPEAT"); do
    for size in $SIZES; do
        n=$(awk -v s="$size" 'BEGIN { printf "%d", s }')
        for state in $STATES; do
            [ -e "${state}_$n.yaml" ] || { echo "no ${state}_$n.yaml in $WORK: run bench/dem.sh first" >&2; exit 1; }
            for build in old new; do
                prog=$OLD; [ "$build" = new ] && prog=$NEW
                ns=$(./core_latency | tail -1)
                speed=$("$prog" run "${state}_$n.yaml" --threads "$THREADS" --quiet \
                        --output "$out/run" | sed -n 's/^speed *\([0-9.e+]*\).*/\1/p')
                echo "$state,$n,$build,$THREADS,$ns,$speed"
            done
        done
    done
done | tee "$out/rows.csv"
echo
echo "state,n,old_median,new_median,new/old"
sort -t, -k1,1 -k2,2n -k3,3 "$out/rows.csv" | awk -F, '
    function median(list,   a, m, i, j, t) { m = split(list, a, " ")
        for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
    { key = $1 "," $2; v[key, $3] = v[key, $3] " " $6; keys[key] = 1 }
    END { for (k in keys) { o = median(v[k, "old"]); w = median(v[k, "new"])
          printf "%s,%.4g,%.4g,%.3f\n", k, o, w, w / o } }' | sort -t, -k1,1 -k2,2n
