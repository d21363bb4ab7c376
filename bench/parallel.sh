#!/bin/sh
# Over several processes (issue 13): rubble and LAMMPS on 1 and 2 MPI ranks of one thread each,
# on the same state of bench/dem_states.sh (same file of grains, law and step count), run
# interleaved. Prints and records particle-steps per second per core for each, and rubble's
# traffic per step and rank (bytes, messages) with the ghosts each rank holds, from which
# docs/parallel.md models weak scaling.
# Usage: bench/parallel.sh RUBBLE [states] [sizes] [particle-steps per run] [repeats]
#   defaults: settle, 1e5,1e6, 1e8 (1000 steps at 1e5, 100 at 1e6), 3
# rubble's time is its stepping loop (the report's speed: the last frame and the thermo rows
# included); LAMMPS's its "Loop time". Writes docs/bench/parallel.csv.
set -eu
RUBBLE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
STATES=${2:-settle}
SIZES=${3:-1e5,1e6}
PSTEPS=${4:-1e8}
REPEAT=${5:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DOCS=$ROOT/docs/bench
mkdir -p "$DOCS"
CSV=${RBL_BENCH_CSV:-$DOCS/parallel.csv}
work=${RBL_BENCH_WORK:-$ROOT/build/bench-dem}
mkdir -p "$work"
cd "$work"
. "$ROOT/bench/dem_states.sh"
MPI="mpirun --allow-run-as-root --bind-to core"

echo "state,n,program,ranks,steps,seconds,particle_steps_per_s,per_core,peak_mib,bytes_per_step_rank,messages_per_step_rank,ghosts_per_rank,comm_share" > "$CSV.tmp"

# one run: program ranks kind n -> "seconds peak_kib bytes messages ghosts comm_seconds"
run_one() {
    prog=$1; ranks=$2; kind=$3; n=$4
    case $prog in
        rubble) if [ "$ranks" = 1 ]; then /usr/bin/time -f "%M" -o mem.txt "$RUBBLE" run "${kind}_$n.yaml" --threads 1 --quiet > out.txt 2>&1
                else /usr/bin/time -f "%M" -o mem.txt $MPI -np "$ranks" "$RUBBLE" run "${kind}_$n.yaml" --quiet > out.txt 2>&1; fi
                rate=$(awk '/^speed/ { print $2 }' out.txt)
                sec=$(awk -v r="$rate" -v n="$n" -v s="$steps" 'BEGIN { if (r > 0) print n * s / r }')
                traffic=$(awk '/^processes/ { for (i = 1; i <= NF; i++) {
                               if ($i == "bytes") b = $(i - 1); if ($i == "messages") m = $(i - 1)
                               if ($i == "ghosts") g = $(i - 1); if ($i == "exchanges") c = $(i - 5) }
                               print b, m, g, c }' out.txt)
                cp out.txt "parallel_rubble_${kind}_${n}_$ranks.txt" ;;
        lammps) sec=$(run_peer lmp "$ranks" "${kind}_$n.lmp.in")
                traffic="" ;;
    esac
    [ -n "$sec" ] || { echo "FAILED: $prog $ranks $kind $n" >&2; tail -5 out.txt >&2; exit 1; }
    echo "$sec $(tail -1 mem.txt) ${traffic:-0 0 0 0}"
}

# rubble and LAMMPS, interleaved (the machine drifts), on one state at one size
measure_state() {
    for ranks in 1 2; do
        for prog in rubble lammps; do : > "ptimes_$prog"; : > "pmem_$prog"; done
        for rep in $(seq "$REPEAT"); do
            for prog in rubble lammps; do
                set -- $(run_one $prog "$ranks" "$kind" "$n")
                echo "$1 $3 $4 $5 $6" >> "ptimes_$prog"; echo "$2" >> "pmem_$prog"
            done
        done
        for prog in rubble lammps; do
            set -- $(median "ptimes_$prog")
            mem=$(sort -g "pmem_$prog" | tail -1)
            awk -v k=$kind -v n=$n -v p=$prog -v c=$ranks -v s=$steps -v t="$1" -v m="$mem" \
                -v b="$2" -v msg="$3" -v g="$4" -v cs="$5" \
                'BEGIN { r = n * s / t; printf "%s,%d,%s,%d,%d,%.4f,%.4g,%.4g,%.1f,%.4g,%.4g,%.4g,%.3f\n",
                         k, n, p, c, s, t, r, r / c, m / 1024, b / s / c, msg / s / c, g / c, cs / t }' >> "$CSV.tmp"
            tail -1 "$CSV.tmp"
        done
    done
}
for_each_state "$STATES" "$SIZES" "$PSTEPS" measure_state
mv "$CSV.tmp" "$CSV"
echo "written: $CSV"
