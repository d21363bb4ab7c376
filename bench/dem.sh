#!/bin/sh
# Soft-sphere benchmark (issues 3, 16): rubble, LIGGGHTS and LAMMPS on a matrix of states of a
# granular system (bench/dem_states.sh: collapsing, settled, flowing, gas, polydisperse 1:3 and
# 1:10, Hertz-Mindlin), each from the same file of grains with the same law and step count, on
# 1 and 2 cores, at several sizes. Prints and records particle-steps per second (per core),
# peak memory, contacts and listed pairs per grain, and the ratio to the faster peer; on 2 cores
# also how far apart the cores were right before each run (bench/core_latency.c: about 35 ns
# or about 170 ns on this project's virtual machines, as the host places them).
# Usage: bench/dem.sh RUBBLE [states] [sizes] [particle-steps per run] [repeats] [cores]
#   defaults: all states, 1e4,1e5,1e6, 5e7 (so 5000 steps at 1e4, 50 at 1e6), 3, "1 2"
# The states are made once by rubble and kept in RBL_BENCH_WORK (default build/bench-dem).
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
STATES=${2:-collapse,settle,flow,gas,poly3,poly10,hertz}
SIZES=${3:-1e4,1e5,1e6}
PSTEPS=${4:-5e7}
REPEAT=${5:-3}
CORES=${6:-1 2}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOCS=$ROOT/docs/bench
mkdir -p "$DOCS"
CSV=${RBL_BENCH_CSV:-$DOCS/dem.csv}
case $CSV in /*) ;; *) CSV=$(pwd)/$CSV ;; esac   # the runs below happen in the work folder
work=${RBL_BENCH_WORK:-$ROOT/build/bench-dem}
mkdir -p "$work"
cd "$work"
. "$ROOT/bench/dem_states.sh"

cc -O2 -pthread "$ROOT/bench/core_latency.c" -o core_latency
echo "state,n,program,cores,steps,seconds,particle_steps_per_s,per_core,peak_mib,contacts_per_grain,listed_per_grain,core_ns" > "$CSV.tmp"

# one run: program cores kind n -> "seconds peak_kib"
run_one() {
    prog=$1; cores=$2; kind=$3; n=$4
    case $prog in
        rubble) /usr/bin/time -f "%M" -o mem.txt "$RUBBLE" run "${kind}_$n.yaml" --quiet --threads "$cores" > out.txt 2>&1
                sec=$(awk '/^stages/ { print $3 + $6 + $11 }' out.txt)
                cp out.txt "rubble_${kind}_$n.txt" ;;
        lammps) sec=$(run_peer lmp "$cores" "${kind}_$n.lmp.in") ;;
        liggghts) sec=$(run_peer liggghts "$cores" "${kind}_$n.lig.in") ;;
    esac
    [ -n "$sec" ] || { echo "FAILED: $prog $cores $kind $n" >&2; tail -5 out.txt >&2; exit 1; }
    echo "$sec $(tail -1 mem.txt)"
}

# the three programs, interleaved (the machine drifts), on one state at one size
measure_state() {
    for cores in $CORES; do
        for prog in rubble liggghts lammps; do : > "times_$prog"; : > "mem_$prog"; : > "lat_$prog"; done
        for rep in $(seq "$REPEAT"); do
            for prog in rubble liggghts lammps; do
                [ "$cores" = 1 ] || ./core_latency >> "lat_$prog"
                set -- $(run_one $prog "$cores" "$kind" "$n")
                echo "$1" >> "times_$prog"; echo "$2" >> "mem_$prog"
            done
        done
        # contacts and listed pairs per grain at the end of rubble's run
        cpg=$(sed -n 's/^contacts.*(\([0-9.]*\) and \([0-9.]*\) per grain.*/\1/p' "rubble_${kind}_$n.txt")
        lpg=$(sed -n 's/^contacts.*(\([0-9.]*\) and \([0-9.]*\) per grain.*/\2/p' "rubble_${kind}_$n.txt")
        for prog in rubble liggghts lammps; do
            med=$(median "times_$prog")
            mem=$(sort -g "mem_$prog" | tail -1)
            lat=$(median "lat_$prog")
            awk -v k=$kind -v n=$n -v p=$prog -v c=$cores -v s=$steps -v t="$med" -v m="$mem" \
                -v cpg="$cpg" -v lpg="$lpg" -v lat="$lat" \
                'BEGIN { r = n * s / t; printf "%s,%d,%s,%d,%d,%.4f,%.4g,%.4g,%.1f,%s,%s,%s\n", k, n, p, c, s, t, r, r / c, m / 1024, cpg, lpg, lat }' >> "$CSV.tmp"
            tail -1 "$CSV.tmp"
        done
    done
}
for_each_state "$STATES" "$SIZES" "$PSTEPS" measure_state
mv "$CSV.tmp" "$CSV"
[ -n "${RBL_BENCH_CSV:-}" ] && exit 0   # a partial run for measuring, not the docs
# one row per state and size for the bar chart: label, rubble / faster peer on 1 and 2 cores
awk -F, 'NR > 1 { key = $1 " " $2; r[key "," $4 "," $3] = $8; if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
    END { for (i = 1; i <= k; i++) { o = order[i]; printf "\"%s\"", o;
            for (c = 1; c <= 2; c++) { g = r[o "," c ",liggghts"]; l = r[o "," c ",lammps"];
                printf " %s", (g == "" && l == "") ? "-" : r[o "," c ",rubble"] / (g > l ? g : l) }
            printf "\n" } }' "$CSV" > "$DOCS/dem-speed.dat"
gnuplot -e "dir='$DOCS'" "$ROOT/bench/dem.gp"
"$ROOT/bench/dem_tables.sh" "$CSV" "bench/dem.sh build/rubble $STATES $SIZES $PSTEPS $REPEAT \"$CORES\"" > "$DOCS/dem.md"
echo "written: $CSV, $DOCS/dem.md"
