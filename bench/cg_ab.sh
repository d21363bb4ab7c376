#!/bin/sh
# Two builds of rubble compared by cachegrind's instruction counts on the benchmark's states
# (bench/dem.sh or bench/roofline.sh makes them in RBL_BENCH_WORK, default build/bench-dem):
# per state, size and build, N and 2N steps on one thread (N = particle-steps / n, at least
# 10) and the difference taken, so reading the file and the setup drop out; the instructions
# per particle-step of each phase (bench/roofline.py's phases: force, neighbour, integrate,
# other), of the whole step (`step`: reading the scene and the set-up cancel) and of the
# neighbour build's own functions, old / new. A count that the machine's
# load does not move (its wall-clock A/B is bench/dem_ab.sh).
# Usage: bench/cg_ab.sh OLD_RUBBLE NEW_RUBBLE [states] [sizes] [particle-steps]
#   defaults: collapse,settle,gas,poly3,poly10,hertz; 1e4; 6e6
set -eu
OLD=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NEW=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
STATES=$(echo "${3:-collapse,settle,gas,poly3,poly10,hertz}" | tr ',' ' ')
SIZES=$(echo "${4:-1e4}" | tr ',' ' ')
PSTEPS=${5:-6e6}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${RBL_BENCH_WORK:-$ROOT/build/bench-dem}
cd "$WORK"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "state,n,build,steps,phase,instructions_per_particle_step"
for size in $SIZES; do
    n=$(awk -v s="$size" 'BEGIN { printf "%d", s }')
    steps=$(awk "BEGIN { s = int($PSTEPS / $n + 0.5); print (s > 10 ? s : 10) }")
    for state in $STATES; do
        [ -e "${state}_$n.yaml" ] || { echo "no ${state}_$n.yaml in $WORK: run bench/dem.sh first" >&2; exit 1; }
        for build in old new; do
            prog=$OLD; [ "$build" = new ] && prog=$NEW
            for mult in 1 2; do
                s=$((steps * mult))
                sed "s/^run: {steps: [0-9]*/run: {steps: $s/" "${state}_$n.yaml" > cg_ab.yaml
                OMP_WAIT_POLICY=passive valgrind --tool=cachegrind --cache-sim=no \
                    --cachegrind-out-file="$out/$build.$mult.out" "$prog" run cg_ab.yaml \
                    --threads 1 --quiet --output "$out/run" > "$out/log.txt" 2>&1 ||
                    { tail -5 "$out/log.txt" >&2; exit 1; }
            done
            python3 "$ROOT/bench/roofline.py" --difference "$ROOT/src" "$out/$build.1.out" \
                "$out/$build.2.out" $((n * steps)) |
                sed "s/^/$state,$n,$build,$steps,/"
        done
    done
done
