#!/bin/sh
# Roofline of the soft-sphere step (issue 75): the machine's own limits (bench/stream.c), then
# for each state of bench/dem.sh's matrix (bench/dem_states.sh) and size, the stages' times on
# 1 and 2 threads (the run report's "stages" row, the best of the repeats: the machine is
# shared) and, on one thread, what each phase does under cachegrind's cache simulation
# (instructions, data reads and writes, first-level and last-level misses: this machine's
# virtual cores expose no performance counters to perf). bench/roofline.py puts them beside
# the bytes and flops counted from the data layout -> docs/bench/roofline.{csv,md tables,png}.
# Usage: bench/roofline.sh RUBBLE [states] [sizes] [particle-steps per run] [repeats]
#                         [cachegrind sizes] [cachegrind particle-steps] [large]
#   defaults: all states, 1e4,1e5, 2e7, 3, 1e4,1e5, 1e6, settle:1e6 (one state at a larger
#   size, "" for none: timed only, unless its size is among the cachegrind sizes)
# The cachegrind runs make N and 2N steps (N = cachegrind particle-steps / n, at least 10) and
# take the difference, so reading the file and the setup drop out; a neighbour build's cost is
# the neighbour functions' share of the longer run over its builds (the setup's included).
# The states are kept in RBL_BENCH_WORK (default build/bench-roofline); RBL_STREAM_SECONDS
# (default 1) is each bandwidth figure's time for repeats; RBL_ROOFLINE_DOCS (default
# docs/bench) where the tables and the plot go.
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
STATES=${2:-collapse,settle,flow,gas,poly3,poly10,hertz}
SIZES=${3:-1e4,1e5}
PSTEPS=${4:-2e7}
REPEAT=${5:-3}
CG_SIZES=${6:-1e4,1e5}
CG_PSTEPS=${7:-1e6}
LARGE=${8-settle:1e6}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOCS=${RBL_ROOFLINE_DOCS:-$ROOT/docs/bench}
work=${RBL_BENCH_WORK:-$ROOT/build/bench-roofline}
mkdir -p "$work" "$DOCS"
cd "$work"
. "$ROOT/bench/dem_states.sh"

# the machine's limits
cc -O3 -march=native -fopenmp "$ROOT/bench/stream.c" -o stream
./stream "${RBL_STREAM_SECONDS:-1}" > limits.txt
cat limits.txt

# the run report's stages: "force_s neighbour_s builds integrate_s contacts_pg listed_pg"
stages_of() {
    awk '/^stages/ { f = $3; nb = $6; b = substr($8, 2); it = $11 }
         /^contacts/ { for (k = 1; k <= NF; k++) if ($k == "per") { c = $(k - 3); l = $(k - 1) } }
         END { gsub(/[()]/, "", c); print f, nb, b, it, c, l }' "$1"
}

echo "state,n,threads,steps,builds,force_s,neighbor_s,integrate_s,contacts_per_grain,listed_per_grain,cpu_share" > times.csv.tmp
echo "state,n,steps,builds,file" > cachegrind.csv.tmp
measure() {
    for threads in 1 2; do
        : > best.txt
        for rep in $(seq "$REPEAT"); do
            /usr/bin/time -f "%e %U %S" -o cpu.txt "$RUBBLE" run "${kind}_$n.yaml" --quiet \
                --threads "$threads" > out.txt 2>&1 || { tail -5 out.txt >&2; exit 1; }
            # the run's CPU time over its wall time (one thread: the share it had of a core)
            echo "$(stages_of out.txt) $(awk '{ s = ($2 + $3) / $1; print (s < 1 ? s : 1) }' cpu.txt)" >> best.txt
        done
        # the repeat whose force pass took the least CPU time (on two threads the least wall
        # time: the CPU share is 1 there, as waiting threads spin)
        awk -v k="$kind" -v n="$n" -v t="$threads" -v s="$steps" '
            NR == 1 || $1 * $7 < f * u { f = $1; nb = $2; it = $4; u = $7 }
            { b = $3; c = $5; l = $6 }
            END { printf "%s,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s\n", k, n, t, s, b, f, nb, it, c, l, u }' best.txt >> times.csv.tmp
        tail -1 times.csv.tmp
    done
    case ",$CG_SIZES," in *",$n_text,"*) ;; *) return 0 ;; esac
    cg_steps=$(awk "BEGIN { s = int($CG_PSTEPS / $n + 0.5); print (s > 10 ? s : 10) }")
    for mult in 1 2; do
        s=$((cg_steps * mult))
        sed "s/^run: {steps: [0-9]*/run: {steps: $s/; s/folder: out_/folder: cg_out_/" "${kind}_$n.yaml" > cg.yaml
        valgrind --tool=cachegrind --cache-sim=yes --D1=49152,12,64 --LL=33554432,16,64 \
            --cachegrind-out-file="cg_${kind}_${n}_$s.out" "$RUBBLE" run cg.yaml --threads 1 \
            > out.txt 2>&1 || { tail -5 out.txt >&2; exit 1; }
        set -- $(stages_of out.txt)
        echo "$kind,$n,$s,$3,cg_${kind}_${n}_$s.out" >> cachegrind.csv.tmp
        tail -1 cachegrind.csv.tmp
    done
}
for_each_state "$STATES" "$SIZES" "$PSTEPS" measure
[ -z "$LARGE" ] || for_each_state "${LARGE%%:*}" "${LARGE#*:}" "$PSTEPS" measure
mv times.csv.tmp times.csv
mv cachegrind.csv.tmp cachegrind.csv
/usr/bin/python3 "$ROOT/bench/roofline.py" "$work" "$ROOT/src" "$DOCS"
