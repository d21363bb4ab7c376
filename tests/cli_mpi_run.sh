#!/bin/sh
# `mpirun -np P rubble run` (issue 13): the settle, hopper (mesh walls) and drum (a turning
# mesh) examples over 2 and 3 processes write what one process writes: thermo.csv's every
# column, and each frame as a .pvtp over one piece per rank holding all the grains. What does
# not run over several processes yet (a pour source; any command but run) is refused once, by
# rank 0, every process exits non-zero and no output folder is made.
. "$(dirname "$0")/cli_run_common.sh"
MPIEXEC=$2
EXAMPLES=$(cd "$(dirname "$0")/../examples" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
mpi() { "$MPIEXEC" --allow-run-as-root --oversubscribe -np "$@"; }

for ex in settle hopper drum; do
    "$RUBBLE" run "$EXAMPLES/$ex.yaml" --steps 1500 --output "${ex}_1" --quiet > "${ex}_1.txt" \
        || fail "$ex on one process"
    for np in 2 3; do
        mpi "$np" "$RUBBLE" run "$EXAMPLES/$ex.yaml" --steps 1500 --output "${ex}_$np" --quiet \
            > "${ex}_$np.txt" || fail "$ex on $np processes"
        cmp -s "${ex}_1/thermo.csv" "${ex}_$np/thermo.csv" \
            || { diff "${ex}_1/thermo.csv" "${ex}_$np/thermo.csv" | head -5; fail "$ex: thermo.csv differs on $np"; }
        last=$(ls "${ex}_$np" | grep '\.pvtp$' | tail -1)
        [ "$(grep -c '<Piece Source=' "${ex}_$np/$last")" -eq "$np" ] || fail "$ex: $last lacks $np pieces"
        grep -q "${last%.pvtp}" "${ex}_$np/grains.pvd" || fail "$ex: grains.pvd does not list $last"
        grains=$(tail -1 "${ex}_1/thermo.csv" | cut -d, -f3)
        points=$(cat "${ex}_$np/${last%.pvtp}"_*.vtp | grep -a -o 'NumberOfPoints="[0-9]*"' \
                 | tr -dc '0-9\n' | awk '{s += $1} END {print s}')
        [ "$points" = "$grains" ] || fail "$ex: the pieces hold $points grains of $grains"
        grep -q "processes      $np (mpirun)" "${ex}_$np.txt" || fail "$ex: no processes line"
    done
    echo "ok: $ex on 2 and 3 processes: thermo.csv as one process's; $(grep processes "${ex}_3.txt" | cut -c16-120)..."
done

# refused: a pour source, and any command but run
mpi 2 "$RUBBLE" run "$EXAMPLES/pour.yaml" --output pour > out.txt 2> pour.txt && fail "a pour ran on 2"
[ "$(grep -c 'a pour source cannot yet run over several processes' pour.txt)" -eq 1 ] \
    || { cat pour.txt; fail "the pour's message is not there once"; }
[ -e pour ] && fail "an output folder was made"
mpi 2 "$RUBBLE" contacts --help > out.txt 2> err.txt && fail "contacts ran on 2"
[ "$(grep -c 'only `rubble run` runs over several processes' err.txt)" -eq 1 ] \
    || { cat err.txt; fail "the message is not there once"; }
echo "ok: refused on 2 processes with one message each: $(grep -h 'cannot yet' pour.txt | cut -c1-150)..."
